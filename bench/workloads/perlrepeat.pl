# A 4097-byte string repeated 32 times, 3000 times: perl's repeat copies the
# string and then doubles what it has, so each copy's destination lies
# 4097 * 2^k past its source (the 4 KiB-aliasing hazard; issue 61).
my $n = $ARGV[0] || 4097;
my $s = "x" x $n;
my $t;
$t = $s x 32 for 1 .. 3000;
