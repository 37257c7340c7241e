//! `simulate --shard I/N` and `merge`: 4 shards merged give exactly the summary of one run
//! of all the games (every number but the timing), also with several rule sets.

mod simulate_util;

use serde_json::Value;
use simulate_util::{json, ok, scratch, summaries, summary, untimed};

fn shard_files(dir: &std::path::Path, n: u64, common: &[&str]) -> Vec<String> {
    (0..n)
        .map(|i| {
            let path = dir.join(format!("shard-{i}.json"));
            let shard = format!("{i}/{n}");
            let mut args = vec!["simulate", "--json", "--shard", &shard, "-o", path.to_str().unwrap()];
            args.extend_from_slice(common);
            let printed = ok(&args);
            assert!(printed.is_empty(), "-o writes the summary to the file only");
            path.to_str().unwrap().to_string()
        })
        .collect()
}

#[test]
fn four_shards_merge_to_one_run() {
    let dir = scratch("shards");
    let common =
        // A plugin-rich rule set that is quick with greedy bots in a debug build.
        [
            "--games",
            "203",
            "--seed",
            "42",
            "--bots",
            "random,greedy,random",
            "--players",
            "3",
            "--threads",
            "2",
            "--rules",
            "embedded:config/princess-dragon.toml",
        ];
    let files = shard_files(&dir, 4, &common);
    let mut one_args = vec!["simulate", "--json"];
    one_args.extend_from_slice(&common);
    let one = json(&one_args);

    // Each shard plays its share: games i, i+4, ...
    let shard_games: Vec<u64> = files
        .iter()
        .map(|f| {
            let file: Value = serde_json::from_str(&std::fs::read_to_string(f).unwrap()).unwrap();
            let v = summary(&file);
            assert_eq!(v["games_total"], 203);
            v["games"].as_u64().unwrap()
        })
        .collect();
    assert_eq!(shard_games, [51, 51, 51, 50]);

    // Merged in any order: exactly the one run.
    let mut args = vec!["merge", "--json"];
    args.extend(files.iter().map(String::as_str));
    let merged = json(&args);
    assert_eq!(summary(&merged)["shard"], Value::Null);
    assert_eq!(untimed(&merged), untimed(&one));
    let mut args = vec!["merge", "--json"];
    args.extend(files.iter().rev().map(String::as_str));
    assert_eq!(untimed(&json(&args)), untimed(&one));

    // Merging merges: (0+2) + (1+3).
    let a = dir.join("a.json");
    let b = dir.join("b.json");
    ok(&["merge", "--json", "-o", a.to_str().unwrap(), &files[0], &files[2]]);
    ok(&["merge", "--json", "-o", b.to_str().unwrap(), &files[1], &files[3]]);
    let partial: Value = serde_json::from_str(&std::fs::read_to_string(&a).unwrap()).unwrap();
    let partial = summary(&partial);
    assert_eq!(partial["shard"], serde_json::json!({"count": 4, "indices": [0, 2]}));
    assert_eq!(partial["games"], 102);
    let again = json(&["merge", "--json", a.to_str().unwrap(), b.to_str().unwrap()]);
    assert_eq!(untimed(&again), untimed(&one));

    // The text of a merge is the text of the run, timing aside.
    let mut args = vec!["merge"];
    args.extend(files.iter().map(String::as_str));
    let text = ok(&args);
    let mut one_text_args = vec!["simulate"];
    one_text_args.extend_from_slice(&common);
    let one_text = ok(&one_text_args);
    let strip = |t: &str| -> Vec<String> {
        t.lines()
            .filter(|l| !l.starts_with("wall time") && !l.starts_with("games per second"))
            .map(String::from)
            .collect()
    };
    assert_eq!(strip(&text), strip(&one_text));
}

#[test]
fn shards_of_several_rule_sets_merge_element_by_element() {
    let dir = scratch("shards-multi");
    let common = [
        "--games",
        "41",
        "--seed",
        "8",
        "--rules",
        "embedded:config/base.toml",
        "--rules",
        "embedded:config/river.toml",
    ];
    let files = shard_files(&dir, 4, &common);
    let mut one_args = vec!["simulate", "--json"];
    one_args.extend_from_slice(&common);
    let one = json(&one_args);
    let mut args = vec!["merge", "--json"];
    args.extend(files.iter().map(String::as_str));
    let merged = json(&args);
    assert_eq!(summaries(&merged).len(), 2);
    assert_eq!(untimed(&merged), untimed(&one));
}

/// deploy/run-shard.sh as a Slurm array task and as a Kubernetes Indexed Job pod.
#[test]
fn deploy_script_runs_shards_that_merge_to_one_run() {
    let dir = scratch("deploy");
    let bin = env!("CARGO_BIN_EXE_carcassonne");
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/deploy/run-shard.sh");
    let run_shard = |envs: &[(&str, String)]| {
        let mut c = std::process::Command::new("sh");
        c.arg(script)
            .env("RULES", "embedded:config/princess-dragon.toml")
            .env("CARCASSONNE", bin)
            .env("GAMES", "37")
            .env("SEED", "3")
            .env("BOTS", "random,greedy");
        for k in ["SHARD_INDEX", "JOB_COMPLETION_INDEX", "SLURM_ARRAY_TASK_ID", "SHARDS", "OUT"] {
            c.env_remove(k);
        }
        for (k, v) in envs {
            c.env(k, v);
        }
        let out = c.output().unwrap();
        assert!(out.status.success(), "run-shard.sh {envs:?}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    };
    // Slurm: array 10-13, files in OUT.
    let slurm = dir.join("slurm");
    for task in 10..14 {
        let printed = run_shard(&[
            ("SLURM_ARRAY_TASK_ID", task.to_string()),
            ("SLURM_ARRAY_TASK_MIN", "10".into()),
            ("SLURM_ARRAY_TASK_COUNT", "4".into()),
            ("OUT", slurm.to_str().unwrap().into()),
        ]);
        assert!(printed.is_empty());
    }
    let mut files: Vec<String> =
        std::fs::read_dir(&slurm).unwrap().map(|e| e.unwrap().path().to_str().unwrap().to_string()).collect();
    files.sort();
    assert_eq!(files.len(), 4);
    assert!(files[3].ends_with("shard-3-of-4.json"), "{files:?}");
    let one = json(&[
        "simulate",
        "--json",
        "--games",
        "37",
        "--seed",
        "3",
        "--bots",
        "random,greedy",
        "--rules",
        "embedded:config/princess-dragon.toml",
    ]);
    let mut args = vec!["merge", "--json"];
    args.extend(files.iter().map(String::as_str));
    assert_eq!(untimed(&json(&args)), untimed(&one));

    // Kubernetes: JOB_COMPLETION_INDEX, summary on stdout (the pod's log).
    let k8s = dir.join("k8s");
    std::fs::create_dir_all(&k8s).unwrap();
    let mut logs = Vec::new();
    for i in 0..4 {
        let log = run_shard(&[("JOB_COMPLETION_INDEX", i.to_string()), ("SHARDS", "4".into())]);
        let path = k8s.join(format!("shard-{i}.json"));
        std::fs::write(&path, log).unwrap();
        logs.push(path.to_str().unwrap().to_string());
    }
    let mut args = vec!["merge", "--json"];
    args.extend(logs.iter().map(String::as_str));
    assert_eq!(untimed(&json(&args)), untimed(&one));

    // The manifests agree with themselves: shard count = array size = completions.
    let root = env!("CARGO_MANIFEST_DIR");
    let job = std::fs::read_to_string(format!("{root}/deploy/k8s/simulate-job.yaml")).unwrap();
    assert!(job.contains("completionMode: Indexed"));
    let completions = job.lines().find_map(|l| l.trim().strip_prefix("completions: ")).unwrap();
    let shards_at = job.find("name: SHARDS").unwrap();
    let shards_value = job[shards_at..].lines().nth(1).unwrap().trim().trim_start_matches("value: ").trim_matches('"');
    assert_eq!(completions, shards_value);
    let sbatch = std::fs::read_to_string(format!("{root}/deploy/slurm/simulate.sbatch")).unwrap();
    assert!(sbatch.contains("#SBATCH --array=0-3"));
}
