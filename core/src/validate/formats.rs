//! The string formats of the spec's subset, and the conversions an HTML `datetime-local`
//! control needs.
//!
//! RFC 3986 URIs and RFC 3339 dates are checked by well-kept crates (`fluent-uri`, `time`);
//! e-mail has no single standard a form can honour, so it follows the rule browsers use for
//! `<input type=email>` (WHATWG), plus a dot in the domain, because the Python SDK's
//! `EmailStr` (email-validator) refuses dotless domains and the server would reject them.

use time::format_description::well_known::Rfc3339;
use time::{OffsetDateTime, UtcOffset};

/// An RFC 3339 `full-date` (`YYYY-MM-DD`), including calendar checks (no 2025-02-30).
pub fn is_full_date(s: &str) -> bool {
    // The RFC 3339 parser checks the full-date grammar and the calendar; a fixed time is
    // appended so one parser serves both formats. The length check stops a string that
    // already carries a time from slipping through.
    s.len() == 10 && !s.contains(['T', 't']) && parse_date_time(&format!("{s}T00:00:00Z")).is_some()
}

/// An RFC 3339 `date-time`: full date, time, and a `Z` or `±HH:MM` offset.
pub fn is_date_time(s: &str) -> bool {
    parse_date_time(s).is_some()
}

fn parse_date_time(s: &str) -> Option<OffsetDateTime> {
    OffsetDateTime::parse(s, &Rfc3339).ok()
}

/// An absolute RFC 3986 URI (a scheme is required; `//example.com` or `/path` are references,
/// not URIs).
pub fn is_uri(s: &str) -> bool {
    fluent_uri::Uri::parse(s).is_ok()
}

/// The WHATWG "valid e-mail address" rule, with at least one dot in the domain.
pub fn is_email(s: &str) -> bool {
    let Some((local, domain)) = s.split_once('@') else {
        return false;
    };
    let local_ok = !local.is_empty()
        && local
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || ".!#$%&'*+/=?^_`{|}~-".contains(c));
    let labels: Vec<&str> = domain.split('.').collect();
    let domain_ok = labels.len() >= 2
        && labels.iter().all(|l| {
            !l.is_empty()
                && l.len() <= 63
                && l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
                && !l.starts_with('-')
                && !l.ends_with('-')
        });
    local_ok && domain_ok
}

/// Turns the value of a `datetime-local` control (`YYYY-MM-DDTHH:MM`, optionally `:SS` and a
/// fraction, no offset) into an RFC 3339 date-time in the user's zone.
///
/// `utc_offset_minutes` is local time minus UTC at that moment (east positive: +60 in Paris in
/// winter). In a browser it is `-new Date(value).getTimezoneOffset()`; taking it for the
/// entered moment, not for now, keeps daylight-saving changes right. Returns `None` when the
/// text is not such a value or the offset is beyond ±23:59.
pub fn local_to_rfc3339(text: &str, utc_offset_minutes: i32) -> Option<String> {
    let offset = offset_text(utc_offset_minutes)?;
    // `HH:MM` without seconds is what Chromium gives when the step is a minute.
    let has_seconds = text.get(16..17) == Some(":");
    let with_seconds = if has_seconds {
        text.to_owned()
    } else if text.len() == 16 {
        format!("{text}:00")
    } else {
        return None;
    };
    if with_seconds.contains(['Z', 'z', '+'])
        || with_seconds.get(19..).is_some_and(|r| r.contains('-'))
    {
        return None;
    }
    let candidate = format!("{with_seconds}{offset}");
    is_date_time(&candidate).then_some(candidate)
}

/// The reverse, for pre-filling a `date-time` default into a `datetime-local` control: the
/// moment shown in the user's zone, as `YYYY-MM-DDTHH:MM` (with `:SS` only when not zero).
/// Returns `None` for text that is not an RFC 3339 date-time or a year outside 0000–9999.
pub fn rfc3339_to_local(text: &str, utc_offset_minutes: i32) -> Option<String> {
    let offset = UtcOffset::from_whole_seconds(utc_offset_minutes.checked_mul(60)?).ok()?;
    let local = parse_date_time(text)?.checked_to_offset(offset)?;
    let year = local.year();
    if !(0..=9999).contains(&year) {
        return None;
    }
    let mut out = format!(
        "{year:04}-{:02}-{:02}T{:02}:{:02}",
        u8::from(local.month()),
        local.day(),
        local.hour(),
        local.minute()
    );
    if local.second() != 0 {
        out.push_str(&format!(":{:02}", local.second()));
    }
    Some(out)
}

fn offset_text(minutes: i32) -> Option<String> {
    if minutes.unsigned_abs() >= 24 * 60 {
        return None;
    }
    let sign = if minutes < 0 { '-' } else { '+' };
    let m = minutes.unsigned_abs();
    Some(format!("{sign}{:02}:{:02}", m / 60, m % 60))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert!(is_full_date("2025-12-26"));
        assert!(!is_full_date("2025-02-30"));
        assert!(!is_full_date("2025-1-01"));
        assert!(!is_full_date("+2025-01-01"));
        assert!(!is_full_date("2025-12-26T00:00:00Z"));
        assert!(is_date_time("2025-12-26T19:30:00Z"));
        assert!(is_date_time("2025-12-26T19:30:00.5+01:00"));
        assert!(!is_date_time("2025-12-26T19:30:00"));
        assert!(!is_date_time("2025-12-26 19:30"));
    }

    /// RFC 3339 5.7: a leap second is 60 at 23:59 UTC; with an offset the local minute is
    /// the one that is 23:59 in UTC (JSON Schema's test suite uses these).
    #[test]
    fn date_times_with_a_leap_second() {
        assert!(is_date_time("2016-12-31T23:59:60Z"));
        assert!(is_date_time("1998-12-31T23:59:60.5Z"));
        assert!(is_date_time("1998-12-31T15:59:60.123-08:00"));
        assert!(is_date_time("1999-01-01T00:59:60+01:00"));
        assert!(!is_date_time("1998-12-31T23:59:61Z"));
        assert!(!is_date_time("1998-12-31T23:58:60Z"));
        assert!(!is_date_time("1998-12-31T22:59:60Z"));
        assert!(!is_date_time("1998-12-31T23:59:60+01:00"));
        assert!(!is_date_time("1998-12-32T23:59:60Z"));
    }

    #[test]
    fn uris_and_emails() {
        assert!(is_uri("https://example.com/a?b#c"));
        assert!(is_uri("urn:isbn:0451450523"));
        assert!(!is_uri("//example.com"));
        assert!(!is_uri("not a uri"));
        assert!(is_email("a.b+c@example.co.uk"));
        assert!(!is_email("a@localhost"));
        assert!(!is_email("a b@example.com"));
        assert!(!is_email("@example.com"));
        assert!(!is_email("a@-x.com"));
        assert!(!is_email("a@@example.com"));
    }

    #[test]
    fn local_date_times() {
        assert_eq!(
            local_to_rfc3339("2025-12-26T19:30", 60).as_deref(),
            Some("2025-12-26T19:30:00+01:00")
        );
        assert_eq!(
            local_to_rfc3339("2025-12-26T19:30:15", -330).as_deref(),
            Some("2025-12-26T19:30:15-05:30")
        );
        assert_eq!(local_to_rfc3339("2025-12-26T19:30Z", 0), None);
        assert_eq!(local_to_rfc3339("2025-12-26", 0), None);
        assert_eq!(local_to_rfc3339("2025-12-26T19:30", 24 * 60), None);
        assert_eq!(
            rfc3339_to_local("2025-12-26T18:30:00Z", 60).as_deref(),
            Some("2025-12-26T19:30")
        );
        assert_eq!(
            rfc3339_to_local("2025-12-26T18:30:05+00:00", 0).as_deref(),
            Some("2025-12-26T18:30:05")
        );
        assert_eq!(rfc3339_to_local("nope", 0), None);
        assert_eq!(rfc3339_to_local("2025-12-26T18:30:00Z", i32::MAX), None);
    }
}
