//! The string formats of the spec's subset, and the conversions an HTML `datetime-local`
//! control needs.
//!
//! Both RFC 3986 URIs and RFC 3339 dates are read here, as the crates that checked them
//! before read them (`fluent-uri`, and the `time` crate's RFC 3339 parser); the native tests
//! `uris_read_as_fluent_uri_reads_them` and `date_times_read_as_the_time_crate_reads_them`
//! hold these readers to those crates' answers. A date-time is exactly `YYYY-MM-DD`, any one
//! byte, `HH:MM:SS`, an optional `.` and digits, then `Z` (either case) or `±HH:MM` with the
//! hour at most 23; a real calendar date (proleptic Gregorian), hours to 23, minutes to 59,
//! and a second of 60 only where UTC is then 23:59:60 on the last day of a month.
//!
//! E-mail has no single standard a form can honour, so it follows the rule browsers use for
//! `<input type=email>` (WHATWG), plus a dot in the domain, because the Python SDK's
//! `EmailStr` (email-validator) refuses dotless domains and the server would reject them.

/// An RFC 3339 `full-date` (`YYYY-MM-DD`), including calendar checks (no 2025-02-30).
pub fn is_full_date(s: &str) -> bool {
    s.len() == 10 && date(s.as_bytes()).is_some()
}

/// An RFC 3339 `date-time`: full date, time, and a `Z` or `±HH:MM` offset.
pub fn is_date_time(s: &str) -> bool {
    DateTime::parse(s).is_some()
}

/// A date-time as read: the wall-clock fields in its own offset (a leap second read as
/// second 59, as `time` keeps it), and that offset in minutes east of UTC.
#[derive(Debug, Clone, Copy, PartialEq)]
struct DateTime {
    year: i64,
    month: u8,
    day: u8,
    hour: u8,
    minute: u8,
    second: u8,
    offset_minutes: i64,
}

/// `n` ASCII digits at the start of `b`, as a number, and the rest.
fn digits(b: &[u8], n: usize) -> Option<(u32, &[u8])> {
    let head = b.get(..n)?;
    let mut value = 0;
    for &c in head {
        if !c.is_ascii_digit() {
            return None;
        }
        value = value * 10 + u32::from(c - b'0');
    }
    Some((value, b.get(n..)?))
}

/// `c` at the start of `b`, and the rest.
fn literal(b: &[u8], c: u8) -> Option<&[u8]> {
    b.strip_prefix(&[c])
}

fn is_leap_year(year: i64) -> bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
}

fn days_in_month(year: i64, month: u8) -> u8 {
    match month {
        2 if is_leap_year(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// `YYYY-MM-DD` at the start of `b` with a real day, and the rest.
fn date(b: &[u8]) -> Option<(i64, u8, u8, &[u8])> {
    let (year, b) = digits(b, 4)?;
    let (month, b) = digits(literal(b, b'-')?, 2)?;
    let (day, b) = digits(literal(b, b'-')?, 2)?;
    let (year, month, day) = (
        i64::from(year),
        u8::try_from(month).ok()?,
        u8::try_from(day).ok()?,
    );
    let real = (1..=12).contains(&month) && day >= 1 && day <= days_in_month(year, month);
    real.then_some((year, month, day, b))
}

/// Days from 1970-01-01 to the given proleptic Gregorian date (negative before it).
fn days_from_civil(year: i64, month: u8, day: u8) -> i64 {
    // Years counted from March, so that the leap day ends a year.
    let (y, m) = if month <= 2 {
        (year - 1, i64::from(month) + 9)
    } else {
        (year, i64::from(month) - 3)
    };
    let era = y.div_euclid(400);
    let year_of_era = y.rem_euclid(400);
    let day_of_year = (153 * m + 2) / 5 + i64::from(day) - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

/// The date of a day count from [`days_from_civil`].
pub(crate) fn civil_from_days(days: i64) -> (i64, u8, u8) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let m = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * m + 2) / 5 + 1;
    let month = if m < 10 { m + 3 } else { m - 9 };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    // Both fit: the month is 1..=12 and the day 1..=31 by construction.
    (year, month as u8, day as u8)
}

impl DateTime {
    fn parse(s: &str) -> Option<Self> {
        let (year, month, day, b) = date(s.as_bytes())?;
        // Any one byte separates the date and the time, as in `time`'s reader.
        let b = b.get(1..)?;
        let (hour, b) = digits(b, 2)?;
        let (minute, b) = digits(literal(b, b':')?, 2)?;
        let (second, mut b) = digits(literal(b, b':')?, 2)?;
        if let Some(rest) = literal(b, b'.') {
            let digits = rest.iter().take_while(|c| c.is_ascii_digit()).count();
            if digits == 0 {
                return None;
            }
            b = rest.get(digits..)?;
        }
        let offset_minutes = match b {
            [b'Z' | b'z'] => 0,
            [sign @ (b'+' | b'-'), rest @ ..] => {
                let (h, rest) = digits(rest, 2)?;
                let (m, rest) = digits(literal(rest, b':')?, 2)?;
                if h > 23 || m > 59 || !rest.is_empty() {
                    return None;
                }
                let minutes = i64::from(h * 60 + m);
                if *sign == b'-' {
                    -minutes
                } else {
                    minutes
                }
            }
            _ => return None,
        };
        if hour > 23 || minute > 59 || second > 60 {
            return None;
        }
        let dt = DateTime {
            year,
            month,
            day,
            hour: u8::try_from(hour).ok()?,
            minute: u8::try_from(minute).ok()?,
            second: u8::try_from(second.min(59)).ok()?,
            offset_minutes,
        };
        if second == 60 {
            // A leap second: UTC must then be the last second of a month. (`time` also
            // wanted that UTC year within ±9999; from four digits and an offset under a day
            // it always is.)
            let utc = dt.to_offset(0);
            let last_second =
                utc.hour == 23 && utc.minute == 59 && utc.day == days_in_month(utc.year, utc.month);
            if !last_second {
                return None;
            }
        }
        Some(dt)
    }

    /// The same moment in another offset (minutes east of UTC).
    fn to_offset(self, offset_minutes: i64) -> DateTime {
        let minutes = days_from_civil(self.year, self.month, self.day) * 1440
            + i64::from(self.hour) * 60
            + i64::from(self.minute)
            - self.offset_minutes
            + offset_minutes;
        let (year, month, day) = civil_from_days(minutes.div_euclid(1440));
        let in_day = minutes.rem_euclid(1440);
        DateTime {
            year,
            month,
            day,
            // Both below 24 and 60 by the remainders.
            hour: (in_day / 60) as u8,
            minute: (in_day % 60) as u8,
            second: self.second,
            offset_minutes,
        }
    }
}

/// A finite number as Rust's `{}` writes an `f64` (the shortest digits that read back as
/// it, never an exponent: `1e21` is `1000000000000000000000`, `-0.0` is `-0`), built from
/// the shortest digits serde_json writes, so that messages quoting a bound link none of
/// `core::fmt`'s float formatting (Grisu and Dragon, some 10 KB gzip of wasm). The two
/// differ only when the number lies exactly halfway between two shortest candidates
/// (1658206780088562.25): serde_json's digits take the even one, `{}` the one further from
/// zero, as here. The native test `number_text_is_rusts_display` holds it to `format!`.
pub fn number_text(f: f64) -> String {
    let Some(n) = serde_json::Number::from_f64(f) else {
        // Not finite: bounds never are (JSON has no NaN or infinity).
        return String::new();
    };
    let json = n.to_string();
    let (sign, unsigned) = match json.strip_prefix('-') {
        Some(rest) => ("-", rest),
        None => ("", json.as_str()),
    };
    let (mantissa, exponent) = match unsigned.split_once(['e', 'E']) {
        Some((m, e)) => (m, e.parse::<i64>().unwrap_or(0)),
        None => (unsigned, 0),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    // The number is `digits` x 10^`last`, `digits` at most 17 digits.
    let all = format!("{int}{frac}");
    let trimmed = all.trim_end_matches('0');
    let mut last = exponent - frac.len() as i64 + (all.len() - trimmed.len()) as i64;
    let mut digits: u64 = trimmed.parse().unwrap_or(0);
    if digits == 0 {
        return format!("{sign}0");
    }
    if is_half_above(f.abs(), digits, last) {
        digits += 1;
        while digits % 10 == 0 {
            digits /= 10;
            last += 1;
        }
    }
    let mut text = digits.to_string();
    let len = text.len() as i64;
    let point = len + last;
    if point <= 0 {
        format!(
            "{sign}0.{}{text}",
            "0".repeat(point.unsigned_abs() as usize)
        )
    } else if point >= len {
        format!("{sign}{text}{}", "0".repeat((point - len) as usize))
    } else {
        // Digits are ASCII, so every index is a boundary (`str::split_at`'s panic would
        // link `core::fmt`'s character escaping into the wasm; `insert` only asserts).
        text.insert(point as usize, '.');
        format!("{sign}{text}")
    }
}

/// Whether `f` (finite, positive) is exactly (`digits` + 1/2) x 10^`last`.
fn is_half_above(f: f64, digits: u64, last: i64) -> bool {
    // f = m x 2^e, m odd; the midpoint is (2 digits + 1) x 5^last x 2^(last - 1), its odd part
    // (2 digits + 1) x 5^last when last >= 0; when last < 0, f x 5^-last must have that odd part.
    let bits = f.to_bits();
    let field = ((bits >> 52) & 0x7FF) as i64;
    let fraction = bits & ((1 << 52) - 1);
    let (mut m, mut e) = if field == 0 {
        (fraction, -1074)
    } else {
        (fraction | (1 << 52), field - 1075)
    };
    if m == 0 {
        return false;
    }
    let zeros = m.trailing_zeros();
    m >>= zeros;
    e += i64::from(zeros);
    let odd = u128::from(digits) * 2 + 1;
    let five = |k: i64| u32::try_from(k).ok().and_then(|k| 5u128.checked_pow(k));
    let (left, right) = if last >= 0 {
        (
            Some(u128::from(m)),
            five(last).and_then(|p| odd.checked_mul(p)),
        )
    } else {
        (
            five(-last).and_then(|p| u128::from(m).checked_mul(p)),
            Some(odd),
        )
    };
    matches!((left, right), (Some(l), Some(r)) if l == r) && e == last - 1
}

/// An absolute RFC 3986 URI (a scheme is required; `//example.com` or `/path` are references,
/// not URIs): RFC 3986's `URI` rule, ASCII only, percent signs followed by two hex digits.
/// (The `fluent-uri` crate checked before; the native test `uris_read_as_fluent_uri_reads_them`
/// holds this to its answers.)
pub fn is_uri(s: &str) -> bool {
    let Some((scheme, rest)) = s.split_once(':') else {
        return false;
    };
    let scheme_ok = scheme
        .as_bytes()
        .first()
        .is_some_and(u8::is_ascii_alphabetic)
        && scheme
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'+' | b'-' | b'.'));
    if !scheme_ok {
        return false;
    }
    let (rest, fragment) = rest.split_once('#').unwrap_or((rest, ""));
    let (hier, query) = rest.split_once('?').unwrap_or((rest, ""));
    let tail_ok = [query, fragment]
        .iter()
        .all(|t| all_of(t, |c| is_pchar(c) || c == b'/' || c == b'?'));
    let (authority, path) = match hier.strip_prefix("//") {
        // `find` answers a boundary, so this always splits (`str::split_at`'s panic would
        // link `core::fmt`'s character escaping into the wasm).
        Some(h) => h
            .split_at_checked(h.find('/').unwrap_or(h.len()))
            .unwrap_or((h, "")),
        None => ("", hier),
    };
    let authority_ok = !hier.starts_with("//") || is_authority(authority);
    tail_ok && authority_ok && all_of(path, |c| is_pchar(c) || c == b'/')
}

fn is_unreserved(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'-' | b'.' | b'_' | b'~')
}

fn is_sub_delim(c: u8) -> bool {
    matches!(
        c,
        b'!' | b'$' | b'&' | b'\'' | b'(' | b')' | b'*' | b'+' | b',' | b';' | b'='
    )
}

fn is_pchar(c: u8) -> bool {
    is_unreserved(c) || is_sub_delim(c) || c == b':' || c == b'@'
}

/// Every byte of `s` passes `ok`, or is a `%` with two hex digits after it.
fn all_of(s: &str, ok: impl Fn(u8) -> bool) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        if c == b'%' {
            let hex = |j: usize| b.get(j).is_some_and(u8::is_ascii_hexdigit);
            if !(hex(i + 1) && hex(i + 2)) {
                return false;
            }
            i += 3;
        } else if ok(c) {
            i += 1;
        } else {
            return false;
        }
    }
    true
}

/// `[ userinfo "@" ] host [ ":" port ]`.
fn is_authority(a: &str) -> bool {
    let (userinfo, hostport) = match a.rsplit_once('@') {
        Some((u, h)) => (u, h),
        None => ("", a),
    };
    if !all_of(userinfo, |c| {
        is_unreserved(c) || is_sub_delim(c) || c == b':'
    }) {
        return false;
    }
    let (host_ok, port) = if let Some(literal) = hostport.strip_prefix('[') {
        match literal.split_once(']') {
            Some((ip, after)) => (is_ip_literal(ip), after),
            None => return false,
        }
    } else {
        let end = hostport.find(':').unwrap_or(hostport.len());
        let (host, after) = hostport.split_at_checked(end).unwrap_or((hostport, ""));
        (all_of(host, |c| is_unreserved(c) || is_sub_delim(c)), after)
    };
    let port_ok = port.is_empty()
        || port
            .strip_prefix(':')
            .is_some_and(|p| p.bytes().all(|c| c.is_ascii_digit()));
    host_ok && port_ok
}

/// What is between `[` and `]`: an IPv6 address or `v` HEX `.` text (IPvFuture).
fn is_ip_literal(ip: &str) -> bool {
    if let Some(future) = ip.strip_prefix(['v', 'V']) {
        return match future.split_once('.') {
            Some((version, text)) => {
                !version.is_empty()
                    && version.bytes().all(|c| c.is_ascii_hexdigit())
                    && !text.is_empty()
                    && text
                        .bytes()
                        .all(|c| is_unreserved(c) || is_sub_delim(c) || c == b':')
            }
            None => false,
        };
    }
    is_ipv6(ip)
}

/// RFC 3986's `IPv6address`: eight 16-bit pieces of 1 to 4 hex digits, the last two of which
/// may be an IPv4 address, or fewer around one `::`.
fn is_ipv6(ip: &str) -> bool {
    // The pieces on each side of the one `::`, with how many 16-bit groups they hold.
    let pieces = |side: &str, may_end_in_ipv4: bool| -> Option<usize> {
        if side.is_empty() {
            return Some(0);
        }
        let parts: Vec<&str> = side.split(':').collect();
        let mut groups = 0;
        for (i, part) in parts.iter().enumerate() {
            let is_last = i + 1 == parts.len();
            if is_last && may_end_in_ipv4 && part.contains('.') {
                if !is_ipv4(part) {
                    return None;
                }
                groups += 2;
            } else if (1..=4).contains(&part.len()) && part.bytes().all(|c| c.is_ascii_hexdigit()) {
                groups += 1;
            } else {
                return None;
            }
        }
        Some(groups)
    };
    // The first "::", found by bytes: `split_once("::")` links a substring searcher.
    let double = ip.as_bytes().windows(2).position(|w| w == b"::");
    match double.and_then(|at| Some((ip.get(..at)?, ip.get(at + 2..)?))) {
        Some((head, tail)) => match (pieces(head, false), pieces(tail, true)) {
            (Some(h), Some(t)) => h + t <= 7,
            _ => false,
        },
        None => pieces(ip, true) == Some(8),
    }
}

/// A dotted-decimal IPv4 address, each part 0 to 255 without leading zeros.
fn is_ipv4(s: &str) -> bool {
    let parts: Vec<&str> = s.split('.').collect();
    parts.len() == 4
        && parts.iter().all(|p| {
            !p.is_empty()
                && p.len() <= 3
                && p.bytes().all(|c| c.is_ascii_digit())
                && (p.len() == 1 || !p.starts_with('0'))
                && p.parse::<u16>().is_ok_and(|n| n <= 255)
        })
}

/// What an e-mail address's local part may hold besides ASCII letters and digits. Bytes,
/// not a `&str`: `str::contains` of a `char` links a substring searcher into the wasm.
const LOCAL_PUNCTUATION: &[u8] = b".!#$%&'*+/=?^_`{|}~-";

/// The WHATWG "valid e-mail address" rule, with at least one dot in the domain.
pub fn is_email(s: &str) -> bool {
    let Some((local, domain)) = s.split_once('@') else {
        return false;
    };
    // By bytes: a character past ASCII is bytes from 0x80 up, none of them allowed.
    let local_ok = !local.is_empty()
        && local
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || LOCAL_PUNCTUATION.contains(&b));
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
    // Offsets up to ±25:59:59, the range `time`'s `UtcOffset` held when it did this.
    let seconds = utc_offset_minutes.checked_mul(60)?;
    if seconds.unsigned_abs() > 25 * 3600 + 59 * 60 + 59 {
        return None;
    }
    let local = DateTime::parse(text)?.to_offset(i64::from(utc_offset_minutes));
    if !(0..=9999).contains(&local.year) {
        return None;
    }
    let mut out = format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}",
        local.year, local.month, local.day, local.hour, local.minute
    );
    if local.second != 0 {
        out.push_str(&format!(":{:02}", local.second));
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

    /// The reader answers as the `time` crate's RFC 3339 parser (what checked before), on
    /// a grid of edge cases and on every one-byte change of a few valid ones.
    #[cfg(not(target_arch = "wasm32"))]
    #[test]
    fn date_times_read_as_the_time_crate_reads_them() {
        use time::format_description::well_known::Rfc3339;
        use time::{OffsetDateTime, UtcOffset};
        let by_time = |s: &str| OffsetDateTime::parse(s, &Rfc3339).ok();
        let local_by_time = |s: &str, minutes: i32| -> Option<String> {
            let offset = UtcOffset::from_whole_seconds(minutes.checked_mul(60)?).ok()?;
            let local = by_time(s)?.checked_to_offset(offset)?;
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
        };
        let dates = [
            "0000-01-01",
            "0000-02-29",
            "0001-02-29",
            "1900-02-29",
            "2000-02-29",
            "2024-02-29",
            "2025-02-28",
            "2025-02-29",
            "2025-04-30",
            "2025-04-31",
            "2025-06-30",
            "2025-12-31",
            "2025-12-32",
            "2025-13-01",
            "2025-00-10",
            "2025-01-00",
            "9999-12-31",
            "1998-12-31",
            "1999-01-01",
            "2016-12-31",
            "2025-1-01",
            "+2025-01-01",
            "2025/01/01",
            "20250101",
        ];
        let seps = ["T", "t", " ", "x", "", "é", "TT"];
        let times = [
            "00:00:00",
            "23:59:59",
            "23:59:60",
            "00:59:60",
            "15:59:60",
            "23:58:60",
            "22:59:60",
            "23:59:61",
            "24:00:00",
            "23:60:00",
            "12:30",
            "1:02:03",
            "12:30:00.",
            "12:30:00.5",
            "12:30:00.123456789123",
            "23:59:60.999",
            "12:3a:00",
        ];
        let offsets = [
            "Z", "z", "+00:00", "-00:00", "+01:00", "-08:00", "+23:59", "-23:59", "+24:00",
            "+05:60", "+0100", "+01", "", "Zz", "+01:00 ", " Z", "−01:00",
        ];
        let shifts = [
            i32::MIN,
            -1560,
            -1559,
            -1440,
            -61,
            -1,
            0,
            1,
            60,
            330,
            1439,
            1559,
            1560,
            i32::MAX,
        ];
        let mut checked = 0;
        for d in dates {
            let want = d.len() == 10 && by_time(&format!("{d}T00:00:00Z")).is_some();
            assert_eq!(is_full_date(d), want, "{d}");
            for sep in seps {
                for t in times {
                    for o in offsets {
                        let s = format!("{d}{sep}{t}{o}");
                        assert_eq!(is_date_time(&s), by_time(&s).is_some(), "{s}");
                        for m in shifts {
                            assert_eq!(rfc3339_to_local(&s, m), local_by_time(&s, m), "{s} {m}");
                        }
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 10_000);
        let valid = [
            "2016-12-31T23:59:60Z",
            "1998-12-31T15:59:60.123-08:00",
            "2025-12-26T19:30:00.5+01:00",
        ];
        for s in valid {
            for cut in 0..=s.len() {
                let p = &s[..cut];
                assert_eq!(is_date_time(p), by_time(p).is_some(), "{p}");
            }
            for i in 0..s.len() {
                for c in b"09Zz+-:.Tx " {
                    let mut b = s.as_bytes().to_vec();
                    b[i] = *c;
                    let t = String::from_utf8(b).unwrap_or_default();
                    assert_eq!(is_date_time(&t), by_time(&t).is_some(), "{t}");
                    assert_eq!(rfc3339_to_local(&t, -330), local_by_time(&t, -330), "{t}");
                }
            }
        }
    }

    /// `number_text` is `format!("{f}")` on edge cases and on a million bit patterns.
    #[test]
    fn number_text_is_rusts_display() {
        let mut cases = vec![
            0.0,
            -0.0,
            1.0,
            -1.0,
            0.1,
            0.5,
            1.5,
            10.0,
            100.0,
            123.456,
            1e15,
            1e16,
            1e17,
            1e21,
            1e22,
            1e-5,
            1e-6,
            1e-7,
            1.25e-7,
            5e-324,
            f64::MIN_POSITIVE,
            f64::MAX,
            f64::MIN,
            f64::EPSILON,
            9007199254740992.0,
            9007199254740993.0,
            0.30000000000000004,
            2.5,
            1e300,
            1.7976931348623157e308,
            4.35,
            0.000123,
            12345678901234567890.0,
        ];
        // A fixed xorshift: every run checks the same million bit patterns.
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..1_000_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            cases.push(f64::from_bits(x));
            cases.push((x % 2_000_001) as f64 / 1000.0 - 1000.0);
        }
        for f in cases.into_iter().filter(|f| f.is_finite()) {
            assert_eq!(number_text(f), format!("{f}"), "{:e}", f);
        }
    }

    /// `is_uri` answers as `fluent-uri` (what checked before) on URIs built at random from
    /// pieces, valid and not, and on every one-byte change of a few valid ones.
    #[cfg(not(target_arch = "wasm32"))]
    #[test]
    fn uris_read_as_fluent_uri_reads_them() {
        let by_crate = |s: &str| fluent_uri::Uri::parse(s).is_ok();
        let schemes = ["http", "a+b.c-d", "1a", "", "H", "a_b", "é", "x"];
        let users = [
            "",
            "u@",
            "u:p@",
            "%41@",
            "%4@",
            "a b@",
            "u@v@",
            "[@",
            "!$&'()*+,;=@",
        ];
        let hosts = [
            "example.com",
            "",
            "[::1]",
            "[::]",
            "[v1.x]",
            "[V1F.a:b]",
            "[v.x]",
            "[v1.]",
            "[1:2:3:4:5:6:7:8]",
            "[1:2:3:4:5:6:7:8:9]",
            "[1:2:3:4:5:6:7]",
            "[1::8]",
            "[1:2:3:4:5:6:7::]",
            "[::2:3:4:5:6:7:8]",
            "[1:2:3:4:5:6::8]",
            "[::ffff:1.2.3.4]",
            "[1:2:3:4:5:6:1.2.3.4]",
            "[1:2:3:4:5::1.2.3.4]",
            "[1:2:3:4:5:6::1.2.3.4]",
            "[::1.2.3.256]",
            "[::01.2.3.4]",
            "[::1.2.3]",
            "[1.2.3.4::]",
            "[1::2::3]",
            "[:::]",
            "[:1::]",
            "[1::2:]",
            "[12345::]",
            "[g::]",
            "[::1",
            "::1]",
            "1.2.3.4",
            "%41b",
            "%4g",
            "a%",
            "ex ample",
            "ex[ample",
            "é.com",
            "a:b",
            "[::1]x",
        ];
        let ports = ["", ":", ":80", ":65536", ":8a", "::80"];
        let paths = [
            "", "/", "/a/b", "//a", "/a//b", "a/b", "/%20", "/%2", "/a b", "/é", "/[", "/a:@",
        ];
        let queries = ["", "?", "?a=b", "?/?", "?a#b", "?%zz", "?[]", "?a b"];
        let fragments = ["", "#", "#f", "#/?", "##", "#%41", "#[", "#a b"];
        let mut x: u64 = 0x2545_F491_4F6C_DD1D;
        let mut next = |n: usize| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % n as u64) as usize
        };
        for _ in 0..200_000 {
            let slashes = ["//", "", "/"][next(3)];
            let s = format!(
                "{}:{slashes}{}{}{}{}{}{}",
                schemes[next(schemes.len())],
                users[next(users.len())],
                hosts[next(hosts.len())],
                ports[next(ports.len())],
                paths[next(paths.len())],
                queries[next(queries.len())],
                fragments[next(fragments.len())],
            );
            assert_eq!(is_uri(&s), by_crate(&s), "{s}");
        }
        let valid = [
            "https://u:p@example.com:8080/a/b?c=d#e",
            "http://[1:2:3:4:5:6:1.2.3.4]/",
            "foo://[v7.a:b]?q",
            "urn:isbn:0451450523",
            "a:b/c%20d",
        ];
        for s in valid {
            assert!(is_uri(s), "{s}");
            for i in 0..=s.len() {
                assert_eq!(is_uri(&s[..i]), by_crate(&s[..i]), "{}", &s[..i]);
            }
            for i in 0..s.len() {
                for c in b":/?#[]@%!1aZ.-_~ \\\"<>{}^`|v" {
                    let mut b = s.as_bytes().to_vec();
                    b[i] = *c;
                    let t = String::from_utf8(b).unwrap_or_default();
                    assert_eq!(is_uri(&t), by_crate(&t), "{t}");
                }
            }
        }
    }

    #[test]
    fn uris_and_emails() {
        assert!(is_uri("https://example.com/a?b#c"));
        assert!(is_uri("urn:isbn:0451450523"));
        assert!(!is_uri("//example.com"));
        assert!(!is_uri("not a uri"));
        assert!(is_email("a.b+c@example.co.uk"));
        assert!(is_email("!#$%&'*+/=?^_`{|}~-@example.com"));
        // Letters past ASCII, even those one byte holds in Latin-1 (U+00E9), are refused.
        assert!(!is_email("\u{e9}@example.com"));
        assert!(!is_email("a\u{2019}b@example.com"));
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
