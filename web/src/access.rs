//! Who may watch and who may press: the `Host` a request names, the `Origin` of a page that
//! opens a WebSocket, and the token that gives the controls.
//!
//! - A `Host` must be `localhost`, an IP address, or a name given with `--allow-host`: a
//!   website that points its own name at this machine (DNS rebinding) is refused.
//! - A WebSocket's `Origin`, when a browser sends one, must be this server's own: another
//!   website open in the same browser cannot watch or press through it.
//! - The controls need the token printed at start (in the URL once, then in a cookie), or
//!   `--open-controls` on a loopback address. The token is compared in constant time.

use std::net::IpAddr;
use subtle::ConstantTimeEq;

/// The cookie that keeps the token.
pub const COOKIE: &str = "jewelbot_token";

/// A random token: 128 bits as 32 hex digits.
pub fn new_token() -> anyhow::Result<String> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes)
        .map_err(|e| anyhow::anyhow!("no random numbers for the token: {e}"))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// Whether `given` is the token, in time that does not depend on where they differ.
pub fn token_matches(token: &str, given: &str) -> bool {
    token.len() == given.len() && bool::from(token.as_bytes().ct_eq(given.as_bytes()))
}

/// The token a `Cookie` header carries, if any.
pub fn token_in_cookies(header: &str) -> Option<&str> {
    header
        .split(';')
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == COOKIE)
        .map(|(_, value)| value.trim())
}

/// The `Host` header's name and port (`[::1]:8080` gives `::1` and 8080).
pub fn split_host(host: &str) -> Option<(&str, Option<u16>)> {
    let (name, port) = if let Some(rest) = host.strip_prefix('[') {
        let (name, after) = rest.split_once(']')?;
        let port = match after {
            "" => None,
            p => Some(p.strip_prefix(':')?),
        };
        (name, port)
    } else {
        match host.rsplit_once(':') {
            Some((name, port)) => (name, Some(port)),
            None => (host, None),
        }
    };
    let port = match port {
        Some(p) => Some(p.parse::<u16>().ok()?),
        None => None,
    };
    (!name.is_empty()).then_some((name, port))
}

/// The names a request may give as its `Host`, and the port the server listens on.
#[derive(Debug, Clone)]
pub struct Hosts {
    pub port: u16,
    /// Names given with `--allow-host`, lower case.
    pub allowed: Vec<String>,
}

impl Hosts {
    /// Whether a request's `Host` header names this server.
    pub fn accepts(&self, host: &str) -> bool {
        let Some((name, port)) = split_host(host) else {
            return false;
        };
        if port.is_some_and(|p| p != self.port) {
            return false;
        }
        let name = name.to_ascii_lowercase();
        name == "localhost" || name.parse::<IpAddr>().is_ok() || self.allowed.contains(&name)
    }

    /// Whether a WebSocket's `Origin` is a page of this server, reached at `host`.
    pub fn same_origin(&self, origin: &str, host: &str) -> bool {
        let Some(rest) = origin
            .strip_prefix("http://")
            .or_else(|| origin.strip_prefix("https://"))
        else {
            return false;
        };
        rest.eq_ignore_ascii_case(host) && self.accepts(rest)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hosts() -> Hosts {
        Hosts {
            port: 8080,
            allowed: vec!["box.lan".into()],
        }
    }

    #[test]
    fn tokens_are_long_random_and_compared_whole() {
        let (a, b) = (new_token().unwrap(), new_token().unwrap());
        assert_eq!(a.len(), 32);
        assert_ne!(a, b);
        assert!(token_matches(&a, &a.clone()));
        assert!(!token_matches(&a, &b));
        assert!(!token_matches(&a, &a[..31]));
        assert!(!token_matches(&a, ""));
    }

    #[test]
    fn the_cookie_gives_the_token() {
        assert_eq!(
            token_in_cookies("a=1; jewelbot_token=abc; b=2"),
            Some("abc")
        );
        assert_eq!(token_in_cookies("jewelbot_tokenx=abc"), None);
        assert_eq!(token_in_cookies(""), None);
    }

    #[test]
    fn hosts_are_this_machine_or_named() {
        let hosts = hosts();
        for good in [
            "localhost:8080",
            "127.0.0.1:8080",
            "[::1]:8080",
            "BOX.lan:8080",
            "10.0.0.2",
        ] {
            assert!(hosts.accepts(good), "{good}");
        }
        for bad in [
            "evil.example:8080",
            "localhost:8081",
            "",
            ":8080",
            "[::1",
            "127.0.0.1:x",
        ] {
            assert!(!hosts.accepts(bad), "{bad}");
        }
    }

    #[test]
    fn origins_must_be_the_page_itself() {
        let hosts = hosts();
        assert!(hosts.same_origin("http://127.0.0.1:8080", "127.0.0.1:8080"));
        assert!(!hosts.same_origin("http://evil.example", "127.0.0.1:8080"));
        assert!(!hosts.same_origin("http://localhost:8080", "127.0.0.1:8080"));
        assert!(!hosts.same_origin("null", "127.0.0.1:8080"));
        assert!(!hosts.same_origin("http://evil.example:8080", "evil.example:8080"));
    }
}
