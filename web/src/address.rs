//! The address the server listens on: `--serve [ADDR:]PORT`, or `serve`'s `--bind` and
//! `--port`. Loopback unless told otherwise.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};

/// The default address: this machine only.
pub const DEFAULT_BIND: IpAddr = IpAddr::V4(Ipv4Addr::LOCALHOST);
pub const DEFAULT_PORT: u16 = 8080;

/// Reads `[ADDR:]PORT` (`8080`, `127.0.0.1:8080`, `[::1]:0`, `localhost:9000`).
pub fn parse_listen(text: &str) -> Result<SocketAddr, String> {
    let text = text.trim();
    if let Ok(port) = text.parse::<u16>() {
        return Ok(SocketAddr::new(DEFAULT_BIND, port));
    }
    if let Some(port) = text.strip_prefix("localhost:") {
        let port = port
            .parse::<u16>()
            .map_err(|_| format!("`{text}`: the port is a number from 0 to 65535"))?;
        return Ok(SocketAddr::new(DEFAULT_BIND, port));
    }
    text.parse::<SocketAddr>().map_err(|_| {
        format!("`{text}` is not [ADDR:]PORT (for example 8080, 127.0.0.1:8080 or [::1]:8080)")
    })
}

/// Reads `--bind`'s address (`localhost` is 127.0.0.1).
pub fn parse_bind(text: &str) -> Result<IpAddr, String> {
    let text = text.trim();
    if text.eq_ignore_ascii_case("localhost") {
        return Ok(DEFAULT_BIND);
    }
    text.trim_start_matches('[')
        .trim_end_matches(']')
        .parse::<IpAddr>()
        .map_err(|_| format!("`{text}` is not an IP address (for example 127.0.0.1 or ::1)"))
}

/// What to say of an address before serving on it.
pub fn warning(address: SocketAddr) -> Option<String> {
    (!address.ip().is_loopback()).then(|| {
        format!(
            "the page is served on {address}, beyond this machine: anyone who can reach it can \
             watch, over plain HTTP (not encrypted)"
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn listen_addresses_read_with_loopback_by_default() {
        assert_eq!(parse_listen("8080"), Ok("127.0.0.1:8080".parse().unwrap()));
        assert_eq!(parse_listen("0"), Ok("127.0.0.1:0".parse().unwrap()));
        assert_eq!(
            parse_listen("0.0.0.0:9000"),
            Ok("0.0.0.0:9000".parse().unwrap())
        );
        assert_eq!(parse_listen("[::1]:80"), Ok("[::1]:80".parse().unwrap()));
        assert_eq!(
            parse_listen("localhost:81"),
            Ok("127.0.0.1:81".parse().unwrap())
        );
        for bad in ["", "70000", "host:80", "127.0.0.1", "localhost:x", ":80"] {
            assert!(parse_listen(bad).is_err(), "{bad}");
        }
        assert_eq!(parse_bind("localhost"), Ok(DEFAULT_BIND));
        assert_eq!(parse_bind("::"), Ok("::".parse().unwrap()));
        assert!(parse_bind("example.com").is_err());
        assert!(warning("127.0.0.1:1".parse().unwrap()).is_none());
        assert!(warning("0.0.0.0:1".parse().unwrap()).is_some());
    }
}
