# Perl's URI module behind `iri conform` (docs/conform-protocol.md).
#
# URI has no validator: `URI->new($s)` takes any string, trims the whitespace at
# its ends and percent-encodes every character it holds not allowed in a URI
# (non-ASCII as UTF-8), and its subclasses rewrite some hosts (IDNA). So a string
# is read as valid here when `URI->new($s)->as_string` is the string itself: URI
# found nothing in it to change. That is a check of characters, not of the
# grammar's structure (a stray `%`, `@` or `[` passes), and the grammar is uri. The
# components are URI::Split's `uri_split` (the distribution's RFC 3986 Appendix B
# split), which gives them as written, undecoded.
use strict;
use warnings;

BEGIN {
    for my $module (qw(URI URI::Split JSON::PP)) {
        next if eval "require $module; 1";
        print STDERR "needs: apt-get install liburi-perl ($module)\n";
        exit 3;
    }
}

my $grammar = $ENV{IRI_CONFORM_GRAMMAR} // "uri";
my $rule = $ENV{IRI_CONFORM_RULE} // "URI-reference";
if ($grammar ne "uri" || $rule ne "URI-reference") {
    print STDERR "perl URI: answers URI-reference in grammar uri only, not $rule in $grammar\n";
    exit 2;
}

my $json = JSON::PP->new->allow_nonref->ascii;
$| = 1;
while (my $line = <STDIN>) {
    my $s = $json->decode($line);
    if (URI->new($s)->as_string ne $s) {
        print "invalid\n";
        next;
    }
    my ($scheme, $authority, $path, $query, $fragment) = URI::Split::uri_split($s);
    print $json->encode({valid => JSON::PP::true, scheme => $scheme, authority => $authority,
                         path => $path, query => $query, fragment => $fragment}), "\n";
}
