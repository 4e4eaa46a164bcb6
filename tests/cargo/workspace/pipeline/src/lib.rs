//! Hands messages to a consumer thread over a crossbeam channel and returns
//! the bytes it received. Every target of this package allocates its own
//! messages in its own function, so a profile shows which one ran.
use crossbeam_channel::bounded;
use std::thread;

pub fn deliver(messages: Vec<Vec<u8>>) -> usize {
    let (sender, receiver) = bounded::<Vec<u8>>(2);
    let consumer = thread::spawn(move || receiver.iter().map(|m| m.len()).sum::<usize>());
    for message in messages {
        sender.send(message).expect("the consumer is gone");
    }
    drop(sender);
    consumer.join().expect("the consumer panicked")
}

#[cfg(test)]
mod tests {
    /// The unit test's own messages: 3 of 40,006 bytes.
    #[inline(never)]
    fn unit_message(fill: u8) -> Vec<u8> {
        vec![fill; 40_006]
    }

    #[test]
    fn delivers_every_message() {
        let messages = (1..=3).map(unit_message).collect();
        assert_eq!(super::deliver(messages), 3 * 40_006);
    }
}
