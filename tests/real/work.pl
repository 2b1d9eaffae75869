# work.pl: make check-real's perl workload: hashing, sorting, regular
# expressions and string building, deterministic (run with
# PERL_HASH_SEED=0 PERL_PERTURB_KEYS=0, so the hash order is fixed).
use strict;
use warnings;

my %count;
my $x = 12345;
for my $i (1 .. 20000) {
    $x = ($x * 1103515245 + 12345) % 2147483648;
    my $word = join '', map { chr(97 + ($x >> (3 * $_)) % 26) } 0 .. 2 + $i % 5;
    $count{$word}++;
}
my @by_count = sort { $count{$b} <=> $count{$a} || $a cmp $b } keys %count;
my $vowels = grep { /^[^aeiou]*[aeiou][^aeiou]*$/ } @by_count;
my $text = join ' ', @by_count[0 .. 999];
(my $upper = $text) =~ s/(\w+)/\u$1/g;
my %lengths;
push @{ $lengths{length $_} }, $_ for @by_count;
printf "perl: %d words, %d with one vowel, top %s, %d lengths, %d chars\n",
    scalar(@by_count), $vowels, $by_count[0], scalar(keys %lengths),
    length $upper;
