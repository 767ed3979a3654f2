// Java's java.net.URI behind `iri conform` (docs/conform-protocol.md).
//
// Run with `java conform/adapters/java/JavaNetUri.java` (Java 11 or later launches a
// single source file; nothing to build). java.net.URI follows RFC 2396, with the
// IPv6 literals of RFC 2732 and some of RFC 3986, and allows non-ASCII "other"
// characters: it is asked both grammars' reference rules.
//
// Components come from its raw getters, the text as written: getScheme,
// getRawAuthority, getRawUserInfo, getHost, getPort, getRawPath, getRawQuery,
// getRawFragment. Left out where they cannot say what the input has:
// - the path and query of an opaque URI (`mailto:a?b`, no `/` after the scheme),
//   which RFC 2396 keeps as one scheme-specific part and getRawPath calls null;
// - the user information, host and port of a registry-based authority (one that
//   is not `[userinfo@]host[:port]` by RFC 2396's stricter host rules), for which
//   getHost is null;
// - the port when getPort's number is not the text of the authority's end (`:080`
//   gives 80, and an empty `:` gives -1 like no port at all).
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;

public class JavaNetUri {
    public static void main(String[] args) throws Exception {
        String grammar = System.getenv().getOrDefault("IRI_CONFORM_GRAMMAR", "iri");
        String rule = System.getenv("IRI_CONFORM_RULE");
        String reference = grammar.equals("uri") ? "URI-reference" : "IRI-reference";
        if (!(grammar.equals("uri") || grammar.equals("iri"))
                || (rule != null && !rule.equals(reference))) {
            System.err.println("java.net.URI: answers URI-reference and IRI-reference only, not "
                    + grammar + "'s " + rule);
            System.exit(2);
        }
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
        for (String line; (line = in.readLine()) != null; ) {
            out.print(answer(decode(line.strip())) + "\n");
            out.flush();
        }
    }

    static String answer(String s) {
        URI u;
        try {
            u = new URI(s);
        } catch (URISyntaxException e) {
            return "invalid";
        }
        StringBuilder a = new StringBuilder("{\"valid\": true");
        key(a, "scheme", u.getScheme());
        key(a, "authority", u.getRawAuthority());
        if (u.getRawAuthority() == null || u.getHost() != null) {
            key(a, "userinfo", u.getRawUserInfo());
            key(a, "host", u.getHost());
            String auth = u.getRawAuthority();
            int port = u.getPort();
            if (port >= 0 && auth.endsWith(":" + port)) {
                key(a, "port", Integer.toString(port));
            } else if (port < 0 && (auth == null || !auth.endsWith(":"))) {
                key(a, "port", null);
            }
        }
        if (!u.isOpaque()) {
            key(a, "path", u.getRawPath());
            key(a, "query", u.getRawQuery());
        }
        key(a, "fragment", u.getRawFragment());
        return a.append('}').toString();
    }

    /** Appends `, "name": value` with value a JSON string (RFC 8259 §7), or null. */
    static void key(StringBuilder a, String name, String value) {
        a.append(", \"").append(name).append("\": ");
        if (value == null) {
            a.append("null");
            return;
        }
        a.append('"');
        for (char c : value.toCharArray()) {
            switch (c) {
                case '"': a.append("\\\""); break;
                case '\\': a.append("\\\\"); break;
                default:
                    // Controls and everything beyond ASCII as a backslash, `u` and four
                    // hex digits: the line stays ASCII, and a character beyond U+FFFF
                    // is written as the surrogate pair Java holds it as.
                    if (c < 0x20 || c > 0x7e) {
                        a.append(String.format("\\u%04x", (int) c));
                    } else {
                        a.append(c);
                    }
            }
        }
        a.append('"');
    }

    /** The string a JSON string literal (RFC 8259 §7) stands for. */
    static String decode(String literal) {
        if (literal.length() < 2 || literal.charAt(0) != '"' || literal.charAt(literal.length() - 1) != '"') {
            throw new IllegalArgumentException("not a JSON string literal: " + literal);
        }
        StringBuilder s = new StringBuilder();
        for (int i = 1; i < literal.length() - 1; i++) {
            char c = literal.charAt(i);
            if (c != '\\') {
                s.append(c);
                continue;
            }
            char e = literal.charAt(++i);
            switch (e) {
                case '"': case '\\': case '/': s.append(e); break;
                case 'b': s.append('\b'); break;
                case 'f': s.append('\f'); break;
                case 'n': s.append('\n'); break;
                case 'r': s.append('\r'); break;
                case 't': s.append('\t'); break;
                // A surrogate pair is two escapes, each one char of the Java string.
                case 'u': s.append((char) Integer.parseInt(literal.substring(i + 1, i + 5), 16)); i += 4; break;
                default: throw new IllegalArgumentException("bad escape \\" + e + " in " + literal);
            }
        }
        return s.toString();
    }
}
