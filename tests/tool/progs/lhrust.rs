// Site names of Rust code: demangled crate::module::function, no hash.
mod store {
    pub mod table {
        #[inline(never)]
        pub fn build(n: usize) -> Vec<u64> {
            let mut v = Vec::with_capacity(n);   // SITE rust_build
            for i in 0..n {
                v.push(i as u64);
            }
            v
        }
    }
}

fn main() {
    let v = store::table::build(1000);
    std::process::exit(if v.len() == 1000 { 0 } else { 1 });
}
