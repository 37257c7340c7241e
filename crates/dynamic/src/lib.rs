//! Run-time plugins: loads house rules from shared libraries built against
//! `carcassonne-plugin-api`, and runs each as a [`carcassonne_core::Plugin`] among the
//! built-in plugins (the same ordered hook dispatch).
//!
//! Each file is loaded on its own ([`RawLibrary::load_at`], then its `LibHeader`):
//! abi_stable's `RootModule::load_from_*` keeps one library per root-module type, which
//! would hand the first plugin file's module to every later one. A file is loaded once
//! per process and never unloaded (its code may still be referenced by running games).
//!
//! Bad input never aborts the process: a missing file, a file that is not a plugin, a
//! plugin of another interface version, a plugin whose constructor panics or whose options
//! are wrong is an error naming the file; a hook that panics, fails or returns an invalid
//! effect stops its game with an error naming the plugin and the hook (see [`wrapper`]).

pub mod conditions;
pub mod drawing;
pub mod host_view;
pub mod wrapper;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use abi_stable::library::{lib_header_from_raw_library, LibraryError, RawLibrary, RootModule};
use abi_stable::std_types::{RErr, ROk, RStr};
use carcassonne_core::config::FilePlugin;
use carcassonne_plugin_api::{ApiVersion, Hooks, PluginModRef};

pub use wrapper::DynamicPlugin;

/// Loaded plugin files by canonical path: each file's root module, or why it is not one.
static LIBRARIES: Mutex<Option<HashMap<PathBuf, Result<PluginModRef, String>>>> = Mutex::new(None);

/// The interface version of this engine.
pub fn api_version() -> ApiVersion {
    ApiVersion::current()
}

/// Where the library of `path` is: `path` itself, or, for a path without an extension,
/// the platform's library file name for it (`dir/name` → `dir/libname.so` on Linux,
/// `dir/libname.dylib` on macOS, `dir/name.dll` on Windows), so that rule sets stay portable.
pub fn library_file(path: &Path) -> PathBuf {
    if path.is_file() || path.extension().is_some() {
        return path.to_path_buf();
    }
    let Some(stem) = path.file_name().and_then(|s| s.to_str()) else {
        return path.to_path_buf();
    };
    let file = format!("{}{stem}{}", std::env::consts::DLL_PREFIX, std::env::consts::DLL_SUFFIX);
    path.with_file_name(file)
}

/// Loads the plugin file at `path` (shown as `shown` in errors) and builds its plugin with
/// `options` (the rule set's `[plugins.options]` table).
pub fn load(path: &Path, shown: &str, options: &toml::Table) -> Result<FilePlugin, String> {
    let module = load_module(path, shown)?;
    let json = serde_json::to_string(options).map_err(|e| format!("plugin file '{shown}' options: {e}"))?;
    let inst = match (module.new())(RStr::from(json.as_str()), api_version()) {
        ROk(i) => i,
        RErr(e) => return Err(format!("plugin file '{shown}': {e}")),
    };
    DynamicPlugin::from_instance(inst, shown)
}

/// A [`carcassonne_core::FileLoader`] for rule sets on disk: paths relative to the
/// directory of `rule_file`.
pub fn disk_loader(rule_file: &str) -> impl Fn(&str, &toml::Table) -> Result<FilePlugin, String> {
    let dir = Path::new(rule_file).parent().map(Path::to_path_buf).unwrap_or_default();
    move |rel: &str, options: &toml::Table| {
        let p = dir.join(rel);
        load(&p, &p.display().to_string(), options)
    }
}

fn load_module(path: &Path, shown: &str) -> Result<PluginModRef, String> {
    let file = library_file(path);
    if file.symlink_metadata().is_err() && path.symlink_metadata().is_err() {
        let also = if file != path { format!(" (nor '{}')", file.display()) } else { String::new() };
        return Err(format!("plugin file '{shown}' not found{also}: {}, or fix `path`", build_hint(path)));
    }
    // A directory, a device or a named pipe is named as such, never opened.
    let file = if file.exists() { file } else { path.to_path_buf() };
    carcassonne_core::files::check_regular(&file).map_err(|e| format!("plugin file '{}' {e}", file.display()))?;
    let key = file.canonicalize().unwrap_or_else(|_| file.clone());
    let mut cache = LIBRARIES.lock().unwrap_or_else(|e| e.into_inner());
    let cache = cache.get_or_insert_with(HashMap::new);
    if let Some(r) = cache.get(&key) {
        return r.clone();
    }
    let r = open(&file, shown);
    cache.insert(key, r.clone());
    r
}

/// How to get a missing plugin file: for a path into a Cargo target directory
/// (`.../target/release/house_monastery`), the command that builds the crate of that name.
fn build_hint(path: &Path) -> String {
    let parts: Vec<&str> = path.iter().filter_map(|c| c.to_str()).collect();
    let n = parts.len();
    let stem = parts.last().map(|f| f.trim_start_matches("lib").split('.').next().unwrap_or(""));
    match (n >= 3, stem) {
        (true, Some(stem))
            if parts[n - 3] == "target" && ["release", "debug"].contains(&parts[n - 2]) && !stem.is_empty() =>
        {
            let profile = if parts[n - 2] == "release" { " --release" } else { "" };
            format!(
                "build it first (for a crate of this workspace: `cargo build{profile} -p {}`)",
                stem.replace('_', "-")
            )
        }
        _ => "build the plugin".to_string(),
    }
}

fn open(file: &Path, shown: &str) -> Result<PluginModRef, String> {
    let raw = RawLibrary::load_at(file).map_err(|e| match e {
        LibraryError::OpenError { err, .. } => {
            format!("plugin file '{shown}' is not a loadable shared library: {}", one_line(&err.to_string()))
        }
        e => format!("plugin file '{shown}': {}", one_line(&e.to_string())),
    })?;
    // The library stays loaded for the life of the process: the header and the module
    // are `'static` references into it.
    let raw: &'static RawLibrary = Box::leak(Box::new(raw));
    // SAFETY: `raw` is never unloaded.
    let header = unsafe { lib_header_from_raw_library(raw) }.map_err(|e| match e {
        LibraryError::GetSymbolError { .. } => format!(
            "plugin file '{shown}' is not a Carcassonne plugin: it exports no plugin module \
             (a plugin is a cdylib calling carcassonne_plugin_api::export_plugin!)"
        ),
        LibraryError::InvalidAbiHeader(_) => format!(
            "plugin file '{shown}' was built with an incompatible version of abi_stable \
             (this engine uses abi_stable 0.11): rebuild it against carcassonne-plugin-api {}",
            api_version()
        ),
        e => format!("plugin file '{shown}': {}", one_line(&e.to_string())),
    })?;
    let consts = header.root_mod_consts();
    if consts.base_name().as_str() != PluginModRef::BASE_NAME {
        return Err(format!(
            "plugin file '{shown}' is not a Carcassonne plugin: it is an abi_stable library of '{}'",
            consts.name()
        ));
    }
    header.init_root_module::<PluginModRef>().map_err(|e| match e {
        LibraryError::IncompatibleVersionNumber { actual_version, expected_version, .. } => format!(
            "plugin file '{shown}' was built against plugin interface {actual_version}, but this engine uses \
             interface {expected_version}: the major versions must match; rebuild the plugin against \
             carcassonne-plugin-api {}.x",
            expected_version.major
        ),
        LibraryError::AbiInstability(detail) => format!(
            "plugin file '{shown}' (plugin interface {}) does not match this engine's plugin interface {}: its types \
             differ ({}); rebuild the plugin against carcassonne-plugin-api {}",
            header.version_strings(),
            api_version(),
            first_line(&detail.to_string()),
            api_version()
        ),
        e => format!("plugin file '{shown}': {}", one_line(&e.to_string())),
    })
}

/// The hook names of a hook bit set, for messages.
pub fn hook_names(h: Hooks) -> Vec<&'static str> {
    (0..Hooks::NAMES.len()).filter(|b| h.0 & (1 << b) != 0).map(|b| Hooks::NAMES[b]).collect()
}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn first_line(s: &str) -> String {
    let l = s.lines().map(str::trim).find(|l| !l.is_empty()).unwrap_or("");
    let l: String = l.chars().take(160).collect();
    l
}
