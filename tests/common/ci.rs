// Whether the tests run under CI, where a missing device or tool is a failure, not a skip.

/// Whether this run is CI: the `CI` variable set to anything but empty, `false` or `0`
/// (CI systems set `true`, `1` or their own name).
pub fn under_ci() -> bool {
    std::env::var_os("CI").is_some_and(|value| {
        let value = value.to_string_lossy();
        let value = value.trim();
        !(value.is_empty() || value == "0" || value.eq_ignore_ascii_case("false"))
    })
}
