# Builds a hash of 300000 short keys and values of 0 to 39 bytes, then
# joins it sorted into one string: 2.8 M memcpy and 2.3 M memmove calls,
# nine in ten of them of 0-16 B, for the in-process A/B of the masked small
# copies (doc/decisions.md, D51).
my %h;
for my $i (1 .. 300000) { $h{"k$i"} = "v" x ($i % 40); }
my $s = join(",", map { "$_=$h{$_}" } sort keys %h);
print length($s), "\n";
