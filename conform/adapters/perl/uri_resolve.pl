# Perl's URI module resolving, `URI->new_abs($reference, $base)`, behind
# `iri conform --resolve` (docs/conform-protocol.md, the resolution exchange).
# Debian: `liburi-perl`. URI validates nothing: every pair gets a target. It
# percent-encodes what a URI may not hold (characters beyond ASCII, spaces).
use strict;
use warnings;
use JSON::PP;
use URI;

if (($ENV{IRI_CONFORM_MODE} // "") ne "resolve") {
    print STDERR "perl URI: resolution only: run it with iri conform --resolve\n";
    exit 2;
}

my $json = JSON::PP->new->ascii->allow_nonref;
$| = 1;
while (my $line = <STDIN>) {
    my ($base, $reference) = @{ $json->decode($line) };
    print $json->encode(URI->new_abs($reference, $base)->as_string), "\n";
}
