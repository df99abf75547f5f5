//! PKCE S256 (RFC 7636) and `state`, from bytes the IO made. The core has no randomness
//! and no SHA-256: the IO draws the bytes (`crypto.getRandomValues`) and hashes the
//! verifier (`crypto.subtle.digest("SHA-256", …)`); these turn the results into text.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;

use super::secret::{CsrfState, PkceVerifier};

/// The `code_verifier` for 32 random bytes: their base64url without padding, 43
/// characters (RFC 7636 §4.1 asks for 43 to 128 characters from 32 octets this way).
pub fn verifier_from_bytes(bytes: &[u8; 32]) -> PkceVerifier {
    PkceVerifier::new(URL_SAFE_NO_PAD.encode(bytes))
}

/// The `code_challenge` for method `S256`: base64url (no padding) of
/// SHA-256(ASCII(code_verifier)), given that digest.
pub fn challenge_from_digest(digest: &[u8; 32]) -> String {
    URL_SAFE_NO_PAD.encode(digest)
}

/// A `state` from 16 or more random bytes (base64url, no padding).
pub fn state_from_bytes(bytes: &[u8]) -> CsrfState {
    CsrfState::new(URL_SAFE_NO_PAD.encode(bytes))
}

/// Fewest random bytes behind a `state`: 128 bits, so a forged callback guesses it with
/// odds of 2^-128.
pub const MIN_STATE_BYTES: usize = 16;
