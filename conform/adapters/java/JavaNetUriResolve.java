// java.net.URI's resolution, `base.resolve(reference)`, behind `iri conform
// --resolve` (docs/conform-protocol.md, the resolution exchange).
//
// java.net.URI follows RFC 2396 (not RFC 3986 §5.2): it resolves against an opaque
// base (`a:b`) by returning the reference, and does not remove a leading `..`.
// A string its constructor refuses (URISyntaxException) is answered `invalid`.
// The lines are JSON arrays of two string literals in ASCII, read by hand (no
// library outside the JDK).

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

public class JavaNetUriResolve {
    public static void main(String[] args) throws Exception {
        if (!"resolve".equals(System.getenv("IRI_CONFORM_MODE"))) {
            System.err.println("java.net.URI resolve: resolution only: run it with iri conform --resolve");
            System.exit(2);
        }
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        PrintStream out = new PrintStream(System.out, false, "UTF-8");
        String line;
        while ((line = in.readLine()) != null) {
            List<String> pair = strings(line);
            String answer;
            try {
                URI base = new URI(pair.get(0));
                answer = quote(base.resolve(new URI(pair.get(1))).toString());
            } catch (URISyntaxException | IllegalArgumentException e) {
                answer = "invalid";
            }
            out.println(answer);
            out.flush();
        }
    }

    /** The string literals of a JSON array of strings in ASCII (RFC 8259 §7). */
    static List<String> strings(String line) {
        List<String> found = new ArrayList<>();
        int i = 0;
        while ((i = line.indexOf('"', i)) >= 0) {
            StringBuilder s = new StringBuilder();
            i++;
            while (line.charAt(i) != '"') {
                char c = line.charAt(i++);
                if (c != '\\') {
                    s.append(c);
                    continue;
                }
                char e = line.charAt(i++);
                switch (e) {
                    case 'n': s.append('\n'); break;
                    case 't': s.append('\t'); break;
                    case 'r': s.append('\r'); break;
                    case 'b': s.append('\b'); break;
                    case 'f': s.append('\f'); break;
                    case 'u': s.append((char) Integer.parseInt(line.substring(i, i + 4), 16)); i += 4; break;
                    default: s.append(e);
                }
            }
            i++;
            found.add(s.toString());
        }
        return found;
    }

    /** A JSON string literal in ASCII. */
    static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') b.append('\\').append(c);
            else if (c >= 0x20 && c < 0x7f) b.append(c);
            else b.append(String.format("\\u%04x", (int) c));
        }
        return b.append('"').toString();
    }
}
