//! A burst of 5 messages of 40,002 bytes.
#[inline(never)]
fn example_message(fill: u8) -> Vec<u8> {
    vec![fill; 40_002]
}

fn main() {
    let messages = (1..=5).map(example_message).collect();
    println!("burst delivered {} bytes", pipeline::deliver(messages));
}
