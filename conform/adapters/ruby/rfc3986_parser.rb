# Ruby's URI::RFC3986_PARSER behind `iri conform` (docs/conform-protocol.md).
#
# `URI::RFC3986_PARSER.parse(s)` (what `URI.parse` and `URI()` run): valid unless it
# raises URI::Error (InvalidURIError from its split, InvalidComponentError from the
# URI class's checks; anything else is a crash, left to end the program). It splits
# with regular expressions written after RFC 3986's ABNF, ASCII only, so the grammar
# is uri and the rule the reference rule. The components are its `split`'s, the
# regular expression's groups, so the input's text; an opaque path (rootless, no
# authority) comes back with its query joined on, and is parted at its `?` here.
begin
  require "uri"
  require "json"
rescue LoadError => e
  warn "needs: apt-get install ruby (#{e.message})"
  exit 3
end

grammar = ENV.fetch("IRI_CONFORM_GRAMMAR", "uri")
rule = ENV.fetch("IRI_CONFORM_RULE", "URI-reference")
unless grammar == "uri" && rule == "URI-reference"
  warn "ruby URI::RFC3986_PARSER: answers URI-reference in grammar uri only, not #{rule} in #{grammar}"
  exit 2
end

parser = URI::RFC3986_PARSER
$stdout.sync = true
$stdin.each_line do |line|
  s = JSON.parse(line)
  begin
    parser.parse(s)
  rescue URI::Error
    puts "invalid"
    next
  end
  scheme, userinfo, host, port, _registry, path, opaque, query, fragment = parser.split(s)
  path, query = opaque.split("?", 2) if opaque
  puts JSON.generate(valid: true, scheme: scheme, userinfo: userinfo, host: host, port: port,
                     path: path, query: query, fragment: fragment)
end
