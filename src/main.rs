//! The `carcassonne` binary.

fn main() -> std::process::ExitCode {
    carcassonne_cli::main()
}
