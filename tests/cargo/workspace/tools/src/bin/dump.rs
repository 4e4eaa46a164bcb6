//! dump, a second binary of the tools package.
fn main() {
    println!("dump");
}
