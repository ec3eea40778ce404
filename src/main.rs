//! The `thud` command-line tool (being built).
fn main() {
    println!("thud");
}
