// Buffer.alloc(size, pattern), 3000 times: node fills a buffer with a
// 4097-byte pattern by copying it and then doubling what it has, so each
// memcpy's destination lies 4097 * 2^k past its source (the 4 KiB-aliasing
// hazard; issue 61).  N (default 4097) as the first argument.
const n = Number(process.argv[2] || 4097);
const pattern = Buffer.alloc(n, "x");
for (let i = 0; i < 3000; i++) Buffer.alloc(n * 32, pattern);
