//! Delivers as many messages of 40,003 bytes as fixtures/messages.txt says
//! (7), read relative to the package's directory as cargo test runs it.
use std::fs;

#[inline(never)]
fn test_message(fill: u8) -> Vec<u8> {
    vec![fill; 40_003]
}

#[test]
fn delivers_every_byte() {
    let count: u8 = fs::read_to_string("fixtures/messages.txt")
        .expect("fixtures/messages.txt (the test runs in the package's directory)")
        .trim()
        .parse()
        .expect("a count");
    let messages = (1..=count).map(test_message).collect();
    assert_eq!(pipeline::deliver(messages), count as usize * 40_003);
}
