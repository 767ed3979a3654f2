# Ruby's URI (the standard library's RFC 3986 parser, URI::RFC3986_PARSER)
# resolving, `base.merge(reference)`, behind `iri conform --resolve`
# (docs/conform-protocol.md, the resolution exchange). Debian: `ruby`.
# A string the parser refuses (URI::Error) is answered `invalid`, as is a merge
# it refuses (a relative base, an opaque one).
require "json"
require "uri"

unless ENV["IRI_CONFORM_MODE"] == "resolve"
  warn "ruby URI: resolution only: run it with iri conform --resolve"
  exit 2
end

parser = URI::RFC3986_PARSER
$stdout.sync = true
$stdin.each_line do |line|
  base, reference = JSON.parse(line)
  answer =
    begin
      JSON.generate(parser.parse(base).merge(parser.parse(reference)).to_s, ascii_only: true)
    rescue URI::Error, ArgumentError
      "invalid"
    end
  puts answer
end
