//! The checked-in generated files must be exactly what their generators
//! produce now: edit the generator, not the output.

use std::path::Path;

#[test]
fn magics_file_is_fresh() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let path = root.join(xtask::magics::GENERATED_PATH);
    let current = std::fs::read_to_string(&path).unwrap();
    assert!(
        current == xtask::magics::generate(),
        "{} is stale: run `cargo xtask gen-magics` and commit the result",
        path.display()
    );
}
