// Go's net/url behind `iri conform` (docs/conform-protocol.md).
//
// url.Parse(s), which takes references, relative ones too: valid unless it returns
// an error (a panic is a crash, left to end the program). It checks little: no
// ASCII control characters, well-formed percent-encodings (`%` and two hex digits),
// a scheme's characters when a `:` comes before any `/`, no `:` in a relative
// reference's first segment, a port of digits, and the characters of a host.
// Anything else passes, non-ASCII and spaces included. It lowercases the scheme,
// decodes the host, user information, path and fragment, and keeps no difference
// between an empty and an absent authority or fragment; so its components are given
// only where they recompose (RFC 3986 §5.3) into the input, and are then its text.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"strings"
)

func main() {
	grammar := getenv("IRI_CONFORM_GRAMMAR", "uri")
	rule := getenv("IRI_CONFORM_RULE", "URI-reference")
	if grammar != "uri" || rule != "URI-reference" {
		fmt.Fprintf(os.Stderr, "go net/url: answers URI-reference in grammar uri only, not %s in %s\n", rule, grammar)
		os.Exit(2)
	}
	in := bufio.NewReader(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	for {
		line, err := in.ReadString('\n')
		if line == "" && err == io.EOF {
			return
		}
		var s string
		if e := json.Unmarshal([]byte(line), &s); e != nil {
			fmt.Fprintf(os.Stderr, "go net/url: input not a JSON string: %v\n", e)
			os.Exit(1)
		}
		fmt.Fprintln(out, answer(s))
		out.Flush()
	}
}

func getenv(key, otherwise string) string {
	if v, ok := os.LookupEnv(key); ok {
		return v
	}
	return otherwise
}

func answer(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return "invalid"
	}
	c := map[string]*string{}
	put := func(key, value string) { c[key] = &value }
	if u.Scheme != "" {
		put("scheme", u.Scheme)
	}
	if u.Opaque != "" {
		put("path", u.Opaque)
	} else {
		if u.Host != "" || u.User != nil {
			if u.User != nil {
				put("userinfo", u.User.String())
			}
			host := u.Host
			if i := strings.LastIndex(host, ":"); i >= 0 && !strings.Contains(host[i:], "]") {
				put("port", host[i+1:])
				host = host[:i]
			}
			put("host", host)
		}
		put("path", u.EscapedPath())
	}
	if u.ForceQuery || u.RawQuery != "" {
		put("query", u.RawQuery)
	}
	if u.Fragment != "" || u.RawFragment != "" {
		put("fragment", u.EscapedFragment())
	}
	if recompose(c) != s {
		return "valid"
	}
	found := map[string]any{"valid": true}
	for _, k := range []string{"scheme", "userinfo", "host", "port", "path", "query", "fragment"} {
		found[k] = c[k]
	}
	b, _ := json.Marshal(found)
	return string(b)
}

// RFC 3986 §5.3: the components put back together.
func recompose(c map[string]*string) string {
	var b strings.Builder
	if v := c["scheme"]; v != nil {
		b.WriteString(*v + ":")
	}
	if v := c["host"]; v != nil {
		b.WriteString("//")
		if u := c["userinfo"]; u != nil {
			b.WriteString(*u + "@")
		}
		b.WriteString(*v)
		if p := c["port"]; p != nil {
			b.WriteString(":" + *p)
		}
	}
	if v := c["path"]; v != nil {
		b.WriteString(*v)
	}
	if v := c["query"]; v != nil {
		b.WriteString("?" + *v)
	}
	if v := c["fragment"]; v != nil {
		b.WriteString("#" + *v)
	}
	return b.String()
}
