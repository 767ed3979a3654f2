//! The threats `SECURITY.md` names, each with the guarantee that answers it. Each
//! row of that file's table points at a test here or elsewhere; these are the ones
//! that had no test of their own.

use iri_grammar::convert::{ToIri, ToUri};
use iri_grammar::lint::{has_errors, LintOptions};
use iri_grammar::normalize::{Level, NormalizeOptions};
use iri_grammar::reference::Component;
use iri_grammar::{check, is_match, IriRef, LeiriRef, Rule, UriRef};
use std::time::{Duration, Instant};

fn iri_of_uri(s: &str) -> String {
    UriRef::parse(s)
        .unwrap()
        .to_iri_with(ToIri::default())
        .unwrap()
        .to_string()
}

/// RFC 3987 §4.1: bidi formatting characters MUST NOT be in an IRI. The grammar lets
/// them through (`ucschar` includes them), so `lint` reports them as errors, URI →
/// IRI keeps them percent-encoded (§3.2 step 4), and the display form encodes them.
#[test]
fn bidi_formatting_characters_are_errors_stay_encoded_and_are_never_displayed() {
    for c in [
        '\u{200E}', '\u{200F}', '\u{202A}', '\u{202B}', '\u{202C}', '\u{202D}', '\u{202E}',
    ] {
        let s = format!("http://a/{c}x?y");
        let r = IriRef::parse(&s).unwrap();
        assert!(has_errors(&r.lint_with(&LintOptions::default())), "{c:?}");
        let encoded = r.to_uri_with(ToUri::default()).unwrap();
        assert_eq!(
            iri_of_uri(encoded.as_str()),
            encoded.as_str(),
            "{c:?} decoded"
        );
        let display = iri_grammar::bidi::display_form(&s);
        assert_eq!(
            display.matches(c).count(),
            usize::from(c == '\u{202A}' || c == '\u{202C}')
        );
    }
}

/// UTS 46 maps look-alikes to delimiters (U+FE6B SMALL COMMERCIAL AT to `@`): a host
/// would become userinfo and another host. IDNA results that are not one host are
/// refused by every operation that runs IDNA (`src/idn.rs`); without IDNA the
/// character is percent-encoded, so the host stays one host. ToUnicode never turns
/// an `xn--` label into such a character either.
#[test]
fn idna_never_turns_a_look_alike_into_a_delimiter() {
    let spoof = "http://evil.example\u{FE6B}bank.example/login";
    let r = IriRef::parse(spoof).unwrap();
    assert_eq!(r.host(), Some("evil.example\u{FE6B}bank.example"));
    assert!(r.to_uri_with(ToUri { idna: true }).is_err());
    assert!(r
        .normalize_with(Level::Scheme, NormalizeOptions::default())
        .is_err());
    assert!(iri_grammar::prepare::prepare(spoof).is_err());
    let u = r.to_uri_with(ToUri::default()).unwrap();
    assert_eq!(u.host(), Some("evil.example%EF%B9%ABbank.example"));
    assert_eq!(u.userinfo(), None);
    // An ACE label whose Unicode form holds U+FE6B is not decoded by to_iri --idna.
    let ace = format!("xn--{}", idna::punycode::encode_str("a\u{FE6B}b").unwrap());
    let s = format!("http://{ace}.example/");
    let i = UriRef::parse(&s)
        .unwrap()
        .to_iri_with(ToIri { idna: true })
        .unwrap();
    assert_eq!(i.as_str(), s);
    // The lint names the look-alike.
    let findings = r.lint_with(&LintOptions::default());
    assert!(
        findings.iter().any(|f| f.code() == "lookalike-delimiter"),
        "{findings:?}"
    );
}

/// RFC 3986 §5.2.4 removes only the literal segments `.` and `..`; `%2E%2E` is a
/// segment of three octets each, so resolution never climbs out of the base path
/// through it. (A server that decodes `%2E%2E` to `..` after resolution must guard
/// its own file system; syntax-based normalization, RFC 3986 §6.2.2.2-3, decodes
/// `%2E` because `.` is unreserved, and then removes the dot segment: that is
/// comparison, not resolution.)
#[test]
fn percent_encoded_dot_segments_are_not_traversed_by_resolution() {
    let base = IriRef::parse("http://a/public/docs/index.html").unwrap();
    for (reference, target) in [
        (
            "%2E%2E/%2E%2E/etc/passwd",
            "http://a/public/docs/%2E%2E/%2E%2E/etc/passwd",
        ),
        ("%2e%2e/secret", "http://a/public/docs/%2e%2e/secret"),
        (".%2E/secret", "http://a/public/docs/.%2E/secret"),
        ("/%2E%2E/x", "http://a/%2E%2E/x"),
        ("../secret", "http://a/public/secret"),
    ] {
        let t = IriRef::parse(reference).unwrap().resolve(&base).unwrap();
        assert_eq!(t, target, "{reference}");
    }
    let n = IriRef::parse("http://a/public/%2E%2E/x")
        .unwrap()
        .normalize_with(Level::Syntax, NormalizeOptions::default())
        .unwrap();
    assert_eq!(n, "http://a/x");
}

/// `%00` is a percent-encoded control: URI → IRI decodes only unreserved US-ASCII and
/// characters allowed in IRIs (RFC 3987 §3.2 steps 2-4), so it stays `%00`; a raw NUL
/// (which only a LEIRI can hold, its `ucschar` has %x0-1F) is encoded when the LEIRI
/// becomes an IRI, and the lint reports it. No operation writes a raw NUL into a URI
/// or IRI.
#[test]
fn nul_stays_percent_encoded() {
    assert_eq!(
        iri_of_uri("http://a/x%00.txt?q=%00#%00"),
        "http://a/x%00.txt?q=%00#%00"
    );
    let n = UriRef::parse("http://a/x%00.txt")
        .unwrap()
        .normalize_with(Level::Syntax, NormalizeOptions::default())
        .unwrap();
    assert_eq!(n, "http://a/x%00.txt");
    assert!(IriRef::parse("http://a/x\0.txt").is_err());
    let l = LeiriRef::parse("http://a/x\0.txt").unwrap();
    assert_eq!(l.leiri_to_iri().unwrap(), "http://a/x%00.txt");
    assert_eq!(
        l.to_uri_with(ToUri::default()).unwrap(),
        "http://a/x%00.txt"
    );
    let findings = l.lint_with(&LintOptions::default());
    assert!(
        findings.iter().any(|f| f.code() == "leiri-control"),
        "{findings:?}"
    );
}

/// RFC 3987 §3.2 decodes only octets that are strictly legal UTF-8 (RFC 3629):
/// overlong forms (`%C0%AF` would be `/`, `%C0%AE` `.`), surrogates, code points
/// beyond U+10FFFF and truncated sequences stay percent-encoded, so a delimiter or a
/// dot segment can never appear by decoding (`src/pct.rs`).
#[test]
fn overlong_and_surrogate_utf8_are_never_decoded() {
    for bad in [
        "%C0%AF",
        "%C0%AE",
        "%E0%80%AF",
        "%F0%80%80%AF",
        "%ED%A0%80",
        "%ED%BF%BF",
        "%F4%90%80%80",
        "%E2%82",
        "%80",
        "%FF",
    ] {
        let s = format!("http://a/b{bad}c/..%C0%AE/d");
        let i = iri_of_uri(&s);
        assert_eq!(i.to_uppercase(), s.to_uppercase(), "{bad} was decoded");
        let n = UriRef::parse(&s)
            .unwrap()
            .normalize_with(Level::Syntax, NormalizeOptions::default())
            .unwrap();
        assert_eq!(n.path_segments().count(), 3, "{bad}: {n}");
        assert!(!iri_grammar::pct::decode(bad).contains(['/', '.']), "{bad}");
    }
}

/// The CPU time this thread has spent running (`CLOCK_THREAD_CPUTIME_ID`), or the
/// wall-clock time where there is no such clock. A thread waiting for a core on a
/// busy machine does not run, so the load of other processes does not count: what
/// is measured is the work.
fn running_time() -> Duration {
    #[cfg(unix)]
    {
        let mut t = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `t` is a valid, writable timespec; the call writes only it.
        if unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) } == 0 {
            return Duration::new(t.tv_sec as u64, t.tv_nsec as u32);
        }
    }
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    START.get_or_init(Instant::now).elapsed()
}

/// Times `f` (its thread's running time, [`running_time`]) on inputs of `n` and
/// `8 n` bytes: a linear operation takes about 8 times as long, a quadratic one 64
/// times. The bound (24 times, plus 20 ms of slack for caches and page faults) is far
/// from both. The sizes take turns, five times each, and the least of each is kept,
/// so that a burst of interference moves both or neither.
fn assert_linear(what: &str, make: impl Fn(usize) -> String, f: impl Fn(&str)) {
    let (small_input, large_input) = (make(16 * 1024), make(128 * 1024));
    let time = |s: &str| {
        let t = running_time();
        f(s);
        running_time().saturating_sub(t)
    };
    let (mut small, mut large) = (Duration::MAX, Duration::MAX);
    for _ in 0..5 {
        small = small.min(time(&small_input));
        large = large.min(time(&large_input));
    }
    assert!(
        large <= small * 24 + Duration::from_millis(20),
        "{what}: {small:?} for 16 KiB, {large:?} for 128 KiB"
    );
}

/// An input of about `n` bytes of one shape.
type Shape = fn(usize) -> String;

/// Denial of service by the shape of an input: the combinators, error explanations,
/// resolution, conversions and normalization take time linear in the input, whatever
/// its shape (long runs of what makes parsers backtrack: colons for IPv6, dots for
/// IPv4, percent signs, dot segments, brackets, almost-valid references).
#[test]
fn every_operation_takes_linear_time_on_hostile_shapes() {
    let shapes: [(&str, Shape); 9] = [
        ("colons", |n| format!("http://[{}", ":".repeat(n))),
        ("ipv6 groups", |n| format!("//[{}]", "1:".repeat(n / 2))),
        ("dotted quads", |n| {
            format!("//{}", "1.2.3.4.".repeat(n / 8))
        }),
        ("percent signs", |n| {
            format!("http://a/{}", "%4".repeat(n / 2))
        }),
        ("dot segments", |n| {
            format!("http://a/{}", "../".repeat(n / 3))
        }),
        ("slashes", |n| format!("a:{}", "/".repeat(n))),
        ("almost a scheme", |n| "a".repeat(n) + ":/"),
        ("at signs", |n| format!("//{}", "@".repeat(n))),
        ("percent-encoded", |n| {
            format!("http://a/{}", "%C3%A9".repeat(n / 6))
        }),
    ];
    let base = IriRef::parse("http://a/b/c/d;p?q").unwrap();
    for (name, make) in shapes {
        assert_linear(&format!("is_match, {name}"), make, |s| {
            let _ = is_match::<iri_grammar::Iri>(Rule::IriReference, s);
        });
        assert_linear(&format!("check, {name}"), make, |s| {
            let _ = check::<iri_grammar::Uri>(Rule::IriReference, s).map_err(|e| e.to_string());
        });
        assert_linear(&format!("operations, {name}"), make, |s| {
            if let Ok(r) = IriRef::parse(s) {
                let _ = r.resolve(&base);
                let _ = r.to_uri_with(ToUri { idna: true });
                let _ = r.normalize_with(Level::Scheme, NormalizeOptions::default());
                let _ = r.lint_with(&LintOptions::default());
            }
        });
    }
}

/// Component spans are stored as `u32`: `parse` (and `tree_of`) refuse an input of 4 GiB or more
/// with an error (rather than wrapping offsets). The string here is 4 GiB of NUL
/// bytes obtained from `calloc`, whose pages the kernel maps lazily, so the test
/// costs little memory; it is skipped (saying so) where the allocation fails.
#[test]
fn a_reference_of_4_gib_is_refused_not_wrapped() {
    let len = u32::MAX as usize;
    let layout = std::alloc::Layout::array::<u8>(len).unwrap();
    // SAFETY: the layout is not zero-sized; a null pointer is checked below.
    let ptr = unsafe { std::alloc::alloc_zeroed(layout) };
    if ptr.is_null() {
        use std::io::Write as _;
        // Straight to standard error, which the harness does not capture: seen.
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED a_reference_of_4_gib_is_refused_not_wrapped: 4 GiB could not be reserved"
        );
        return;
    }
    // SAFETY: `ptr` holds `len` initialized (zero) bytes, which are valid UTF-8 (NUL).
    let text = unsafe { std::str::from_utf8_unchecked(std::slice::from_raw_parts(ptr, len)) };
    let e = IriRef::parse(text).unwrap_err();
    assert_eq!(e.byte_offset(), u32::MAX as usize);
    let expected: Vec<String> = e.expected().iter().map(|x| x.to_string()).collect();
    assert_eq!(expected, ["a reference shorter than 4 GiB"]);
    // Trees' offsets are u32 too.
    let e = iri_grammar::tree::tree_of::<iri_grammar::Iri>(Rule::IriReference, text).unwrap_err();
    assert_eq!(e.byte_offset(), u32::MAX as usize);
    let expected: Vec<String> = e.expected().iter().map(|x| x.to_string()).collect();
    assert_eq!(expected, ["an input shorter than 4 GiB"]);
    // SAFETY: allocated above with this layout.
    unsafe { std::alloc::dealloc(ptr, layout) };
    // Just below the limit, components are spans as usual.
    let r = IriRef::parse("http://a/b?c#d").unwrap();
    assert_eq!(r.span(Component::Fragment), Some(13..14));
}
