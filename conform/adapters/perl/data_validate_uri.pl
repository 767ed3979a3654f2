# Perl's Data::Validate::URI behind `iri conform` (docs/conform-protocol.md).
#
# `is_uri($s)`: valid when it returns the URI, invalid when undef. Its own checks,
# after RFC 3986: a character set, percent-encoding, Appendix B's split, a scheme
# required (the rule is URI), an authority's path starting with `/`, no `//`
# path without one. ASCII only, so the grammar is uri. A verdict only.
use strict;
use warnings;

BEGIN {
    for my $module (qw(Data::Validate::URI JSON::PP)) {
        next if eval "require $module; 1";
        print STDERR "needs: apt-get install libdata-validate-uri-perl ($module)\n";
        exit 3;
    }
}

my $grammar = $ENV{IRI_CONFORM_GRAMMAR} // "uri";
my $rule = $ENV{IRI_CONFORM_RULE} // "URI";
if ($grammar ne "uri" || $rule ne "URI") {
    print STDERR "Data::Validate::URI: answers URI in grammar uri only, not $rule in $grammar\n";
    exit 2;
}

my $json = JSON::PP->new->allow_nonref;
$| = 1;
while (my $line = <STDIN>) {
    my $s = $json->decode($line);
    print defined(Data::Validate::URI::is_uri($s)) ? "valid\n" : "invalid\n";
}
