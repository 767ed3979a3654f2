//! Parsers generated at build time from ABNF by `iri_grammar_abnf::codegen::standalone`
//! (see `build.rs`): plain nom parsers, one per rule, that depend on nothing but nom.
//!
//! ```
//! use iri_grammar_abnf_example::{rfc3339, rfc6874};
//! assert!(rfc3339::date_time_full("1985-04-12T23:20:50.52Z"));
//! assert!(rfc3339::date_time_full("1996-12-19t16:39:57-08:00"), "t and z in either case");
//! assert!(!rfc3339::date_time_full("1985-04-12 23:20:50Z"));
//! assert!(rfc6874::ip_literal_full("[fe80::a%25en1]"));
//! assert!(!rfc6874::ip_literal_full("[fe80::a%en1]"), "the % of the zone is written %25");
//!
//! // Each rule is a nom parser, to compose with nom's own.
//! use nom::{bytes::complete::tag, sequence::separated_pair, Parser};
//! let (rest, (date, time)) =
//!     separated_pair(rfc3339::full_date, tag(" at "), rfc3339::partial_time)
//!         .parse("2002-07-01 at 12:00:00, then")
//!         .unwrap();
//! assert_eq!((date, time, rest), ("2002-07-01", "12:00:00", ", then"));
//! ```

include!(concat!(env!("OUT_DIR"), "/rfc3339.rs"));
include!(concat!(env!("OUT_DIR"), "/rfc6874.rs"));
