"""English: every UI string, one flat table (key -> text with ``{placeholders}``).

Both catalogs carry the same keys with the same placeholders (tests/test_i18n_catalog.py checks it).
"""

from __future__ import annotations

MESSAGES: dict[str, str] = {
    # shared chrome and counts
    "app.subtitle": "predict, then measure",
    "app.no_exercise": "Exercise {id} is not in this course",
    "app.no_lab": "Lab {id} is not in this course",
    "app.no_class": "The class report needs a class's store (tutor --store postgresql://…)",
    "map.title": "Course map",
    "map.invalid": "Files with errors",
    "map.sections": "Theory",
    "map.labs": "Labs",
    "map.exercises": "Exercises",
    "map.empty": "Pick a lesson in the map.",
    "map.hint": "↑/↓ to move, Enter to open, l to switch language.",
    "lesson.no_exercises": "This lesson has no exercises.",
    "map.second_pass_hint": "Pick an exercise and press 2 for the second pass (no hints, no theory).",
    "lesson.outcome": "Outcome",
    "invalid.title": "This file could not be loaded",
    "invalid.body": "The rest of the course works. Fix these problems and reopen the tutor:",
    "lang.switched": "Language: English",
    "side.memory": "memory",
    "roof.cache_resident": (
        "Tutor's note: it reached {fraction} of the memory roof, more than DRAM allows, because its working set ({ws}) "
        "fits in your last-level cache ({llc}, {source}): the roof was measured in DRAM and this kernel "
        "never left the cache."
    ),
    "roof.remeasured": (
        "Tutor's note: it landed at {fraction} of a roof it should not beat, so the cached roof was suspect (measured "
        "while the machine was busy, or the machine changed). The tutor measured your roofline again and judged this "
        "result against the new one."
    ),
    "roof.still_above": (
        "Even against the re-measured roof it sits at {fraction}: that is the noise of a shared machine or a clock "
        "that rose above nominal; read it as a bound, not a record."
    ),
    "side.compute": "compute",
    "progress.stored_at": "Your progress is stored in: {where}",
    "count.step.one": "{n} step",
    "count.step.other": "{n} steps",
    "count.read_pass.one": "{n} pass",
    "count.read_pass.other": "{n} passes",
    "count.attempt.one": "{n} attempt",
    "count.attempt.other": "{n} attempts",
    "count.warning.one": "{n} warning",
    "count.warning.other": "{n} warnings",
    "count.failure.one": "{n} failed",
    "count.failure.other": "{n} failed",
    "count.ok.one": "{n} ok",
    "count.ok.other": "{n} ok",
    "count.skip.one": "{n} not applicable",
    "count.skip.other": "{n} not applicable",
    "count.sample.one": "{n} sample",
    "count.sample.other": "{n} samples",
    "count.prediction.one": "{n} prediction",
    "count.prediction.other": "{n} predictions",
    "count.row.one": "{n} {table} row",
    "count.row.other": "{n} {table} rows",
    # tutor.commands.classroom
    "class.init_done": (
        "Class ready on {server} (schema {schema}). You ({owner}) are the instructor: you read every learner's rows. "
        "Row-level security is on for {count} tables: each learner sees and writes only their own.\nNext: tutor class "
        "add-learner NAME"
    ),
    "class.learner_added": (
        "Learner {name} created. Give them these; they are not shown again (the server keeps only a hash):\n  name:  "
        "{name}\n  token: {token}\n  connection: {dsn}\n  .pgpass line: {pgpass}\nIn their terminal: add the .pgpass "
        "line to ~/.pgpass (chmod 600), or save the token alone in a file only they can read, then: tutor --store "
        "'{dsn}' (--token-file FILE); in a terminal the tutor asks for it otherwise. Never in --store: every user of "
        "the machine sees a command line (ps).\nIn the browser (tutor serve): name and token."
    ),
    "labcli.unknown": "no lab {lab!r} in this course ('tutor lab list' lists them)",
    "labcli.question": "Question",
    "labcli.prediction": "Your prediction (locked)",
    "labcli.failed": "the lab's measurement failed: {reason}",
    "labcli.cancelled": "measurement cancelled; nothing was stored",
    "labcli.filed": "Notebook entry {entry} filed (tutor notebook export --entry {entry}).",
    "labcli.none": "(no labs in this course)",
    # tutor.commands (argument checks)
    "cli.cannot_write": "cannot write {path}: {reason}",
    "cli.at_least": "{option} must be at least {minimum} (got {got})",
    "cli.between": "{option} must be between {low} and {high} (got {got})",
    "cli.unknown_device": "unknown device '{device}' (choose auto, cpu or cuda)",
    "cli.no_course": "no course found in {path} (expected {path}/lessons and {path}/exercises)",
    "cli.interrupted": "{prog}: interrupted",
    "cli.token_in_argv": (
        "{prog}: WARNING: the token in --store is on this process's command line, which every user of this machine "
        "can read (ps). Use --store without it and --token-file FILE, ~/.pgpass, or the prompt; ask your instructor "
        "for a new token."
    ),
    "cli.token_prompt": "Token for {server} (not shown): ",
    "cli.class_login": "--class-login needs ${env} (tutor serve sets it)",
    # tutor's command line: help texts (cli.desc.* a command's description, cli.help.* an option's or command's line)
    "cli.desc.tutor": (
        "GPU Tutor — learn GPU performance by predicting first and then measuring on your own hardware. With no "
        "subcommand, opens the course in the terminal UI."
    ),
    "cli.title.commands": "commands",
    "cli.title.actions": "actions",
    "cli.help.tutor.lang": (
        "language of the course and UI (default: the language last chosen in the tutor, else the locale's)"
    ),
    "cli.help.tutor.telemetry": "telemetry backend for the TUI: auto, nvml, host or replay:FILE (default: auto)",
    "cli.help.tutor.telemetry_interval": "seconds between telemetry samples in the TUI (default 1.0, minimum 0.25)",
    "cli.help.course": "open another course folder (DIR/lessons and DIR/exercises) instead of the bundled one",
    "cli.help.data_dir": "where progress is stored (default: the user data dir, or $TUTOR_DATA_DIR)",
    "cli.help.store": (
        "the progress store: a postgresql://… URL for a class (or $TUTOR_STORE); default: the SQLite file in the data "
        "dir"
    ),
    "cli.help.token_file": (
        "read the class token from FILE (only you may read it: chmod 600) rather than from the command line; also "
        "PGPASSFILE/~/.pgpass, PGPASSWORD, or a hidden prompt in a terminal"
    ),
    "cli.help.lang": (
        "language of the output (default: the language last chosen in the tutor, else the locale's; JSON stays "
        "English)"
    ),
    "cli.help.lang.bench": (
        "language of the progress lines, the table and the Markdown report (default: the language last chosen in the "
        "tutor, else the locale's; the JSON is the same)"
    ),
    "cli.help.lang.serve": (
        "language the tutor opens in, in the browser (default: the language last chosen in the tutor, else the "
        "locale's)"
    ),
    "cli.help.lessons": "check or list the course's lessons",
    "cli.help.lessons.check": "validate lesson and exercise files (default: the bundled course)",
    "cli.desc.lessons.check": (
        "Validate course files: one line per problem as path:line:col: error: message. Exit 1 if any error, 0 "
        "otherwise."
    ),
    "cli.help.lessons.check.paths": "files or folders to check",
    "cli.help.lessons.check.allow_one_language": (
        "do not require both es and en texts (the bundled course always needs both)"
    ),
    "cli.help.lessons.check.strict": (
        "also warn when an exercise's answer (a formula on literal inputs) is printed in its lesson's theory"
    ),
    "cli.help.lessons.list": "list the course's levels and lessons",
    "cli.help.exercise": "list exercises, or run one headless (predict, measure, grade)",
    "cli.desc.exercise": "Predict-then-measure exercises without the TUI: the same flow and the same progress store.",
    "cli.help.exercise.list": "every exercise: id, kind, lesson, unit and choices",
    "cli.help.exercise.list.json": "one JSON document (a list of exercises)",
    "cli.help.exercise.run": "predict, lock, measure on this machine, grade and store one attempt",
    "cli.desc.exercise.run": (
        "Run one exercise. --predict takes a choice id for bound (memory|compute), fit (fits|does_not_fit, optionally "
        "with the GB: 'does_not_fit:40' or --gb 40) and diagnose (see 'tutor exercise list'); a number in the "
        "exercise's unit for number exercises. --resume N measures an unfinished attempt (locked, never measured: see "
        "'tutor progress') with the prediction it stored. The measurement runs in the same worker process as in the "
        "TUI. Exit 0 once graded and stored whatever the verdict, 2 on bad input (nothing stored), 1 if the "
        "measurement fails, 130 on Ctrl-C (the attempt is marked cancelled)."
    ),
    "cli.help.exercise.run.exercise_id": "the exercise id",
    "cli.help.exercise.run.predict": "your prediction (choice id or number); required unless --resume",
    "cli.help.exercise.run.resume": "measure the unfinished attempt #N with the prediction it stored",
    "cli.help.exercise.run.gb": "fit exercises: the size you predict, in GB",
    "cli.help.exercise.run.confidence": (
        "how sure you are in % (default 80), from chance to 100: 1/options for a choice among three or more (14 "
        "for seven), else 50"
    ),
    "cli.help.exercise.run.pass": "1 (default) or 2: the second pass, without hints, must reproduce the first",
    "cli.help.exercise.run.device": "where to measure (default auto: the GPU when torch can use one)",
    "cli.help.exercise.run.roofline_mode": (
        "how carefully to measure the roofline when it is not cached yet (default quick)"
    ),
    "cli.help.exercise.run.budget": "seconds of timed repeats for a workload (0.05–10, default 1)",
    "cli.help.exercise.run.json": "print the graded attempt as JSON",
    "cli.help.exercise.discard": "discard an unfinished attempt (locked, never measured)",
    "cli.desc.exercise.discard": (
        "Mark the unfinished attempt #N cancelled: its prediction stays in the history, it is no longer offered to "
        "resume. 'tutor progress' lists the unfinished attempts."
    ),
    "cli.help.exercise.discard.attempt_id": "the attempt's number",
    "cli.help.lab": "list labs, or run one headless (predict, measure, file the notebook entry)",
    "cli.desc.lab": "The course's labs without the TUI: the same flow and the same progress store as the lab screen.",
    "cli.help.lab.list": "every lab: id, lesson, what it runs, the unit of its prediction",
    "cli.help.lab.list.json": "one JSON document (a list of labs)",
    "cli.help.lab.run": "predict, lock, measure on this machine, store the run and file its notebook entry",
    "cli.desc.lab.run": (
        "Run one lab. --predict is your answer to the lab's question, locked before anything runs: a number in the "
        "lab's unit when it has one (a decimal comma is fine), else a sentence. Exit 0 once stored, 2 on bad input, 1 "
        "if the measurement fails, 130 on Ctrl-C."
    ),
    "cli.help.lab.run.lab_id": "the lab id ('tutor lab list' shows them)",
    "cli.help.lab.run.predict": "your prediction (number or sentence)",
    "cli.help.lab.run.json": "print the stored run as JSON",
    "cli.help.bench": "measure bandwidth, matmul FLOP/s, decode and training throughput; compare with the last run",
    "cli.desc.bench": (
        "The reference benchmark: peak memory bandwidth, peak matmul FLOP/s per dtype, ridge point, decode tokens/s of "
        "a bundled small transformer against its bandwidth bound, training tokens/s and MFU. The run is stored and "
        "compared with the previous run on the same device fingerprint."
    ),
    "cli.help.bench.quick": (
        "the quick pass (under 30 s, the lab's quick look; by default the standard pass: the same sizes, three "
        "times the rounds, under 90 s, the one whose two runs reproduce)"
    ),
    "cli.help.bench.standard": "the standard pass (the default; C0's evidence)",
    "cli.help.bench.full": "larger arrays and matrices, more repeats and dtypes (a few minutes)",
    "cli.help.bench.device": "auto (CUDA when present, else the CPU), cpu or cuda (default: auto)",
    "cli.help.bench.json": (
        "write the JSON report to FILE; with no FILE (or '-') print it on stdout, the table going to stderr"
    ),
    "cli.help.bench.markdown": "write the Markdown report to FILE",
    "cli.help.bench.tolerance": "agreement tolerance with the previous run (default 0.05 = 5 %)",
    "cli.help.bench.no_store": "do not record this run in the progress store (nor compare it)",
    "cli.help.doctor": "diagnose the torch/CUDA/driver stack and write or check the environment lock",
    "cli.desc.doctor": (
        "Diagnose the stack in seconds: torch build, NVIDIA GPU and driver, kernels for the GPU (sm_120), WSL2, "
        "containers, CUDA_VISIBLE_DEVICES, allocator settings, GPU memory held by other processes. Exit status: 0 when "
        "no check fails (a machine without a GPU passes), 1 when one fails or the lock differs under --check-lock, 2 "
        "when the lock file cannot be used."
    ),
    "cli.help.doctor.json": "print the report as JSON (schema gpu-tutor/doctor/v1)",
    "cli.help.doctor.lock": "write the environment lock (versions, GPU, driver) to FILE (default: the data dir's lock)",
    "cli.help.doctor.check_lock": (
        "compare this environment with the lock in FILE and list every difference (exit 1 if any)"
    ),
    "cli.help.doctor.no_probe": "do not launch the tiny CUDA kernel that confirms torch has kernels for the GPU",
    "cli.help.telemetry": "show live GPU/CPU telemetry (or JSON lines) without the TUI",
    "cli.desc.telemetry": (
        "Sample this machine's telemetry: NVIDIA GPUs through NVML, and CPU/RAM through psutil. Without an NVIDIA GPU "
        "the host figures are shown and every sample says why there is no GPU."
    ),
    "cli.help.telemetry.json": "one JSON object per device per sample, per line",
    "cli.help.telemetry.samples": "stop after N samples (default: until Ctrl-C)",
    "cli.help.telemetry.record": "also write a trace (JSON lines) for replay:FILE",
    "cli.help.telemetry.pcie": "also read PCIe TX/RX (NVML; each read costs ~20 ms in the driver)",
    "cli.help.progress": "your progress and the C0 checklist; export, import or reset it",
    "cli.desc.progress": "Per-lesson status, the C0 checklist with the evidence behind it, calibration and history.",
    "cli.help.progress.json": "the whole report as one JSON document",
    "cli.help.progress.check_env": "also compare the environment lock with the current environment now (imports torch)",
    "cli.help.progress.export": "write all progress to a JSON file",
    "cli.help.progress.export.file": "where to write the export (a JSON file)",
    "cli.help.progress.import": "load progress from a JSON export (refuses to overwrite unless --merge or --replace)",
    "cli.desc.progress.import": (
        "Validate an export and load it. Into a store that already holds data: refuse, unless --merge (add rows that "
        "are not there yet) or --replace (discard the current progress)."
    ),
    "cli.help.progress.import.file": "an export written by 'tutor progress export'",
    "cli.help.progress.import.merge": "add what is missing; rows already there are skipped",
    "cli.help.progress.import.replace": "discard the current progress, then load the file",
    "cli.help.progress.acknowledge": "stop showing the notice that a corrupt progress file was moved aside",
    "cli.desc.progress.acknowledge": (
        "Mark every recorded recovery (a corrupt progress file moved aside) as seen. The backups stay."
    ),
    "cli.help.progress.reset": "forget one exercise, one lesson or everything (asks first)",
    "cli.help.progress.reset.exercise": "the attempts of one exercise",
    "cli.help.progress.reset.lesson": "one lesson: its attempts, sections read and lab runs",
    "cli.help.progress.reset.all": "everything in the progress store",
    "cli.help.progress.reset.yes": "do not ask for confirmation",
    "cli.help.notebook": "the Lab Notebook: list entries, export them to Markdown",
    "cli.desc.notebook": "The Lab Notebook: one entry per lab run (hypothesis, set-up, prediction, result, the gap).",
    "cli.help.notebook.list": "one line per entry (id, date, lab, device)",
    "cli.help.notebook.export": "write every entry (or some) as one Markdown file",
    "cli.help.notebook.export.file": (
        "where to write ('-' for stdout; default: a new file in the reports folder, whose path is printed)"
    ),
    "cli.help.notebook.export.entry": "only this entry (repeatable)",
    "cli.help.notebook.export.lab": "only the entries of this lab",
    "cli.help.notebook.write": (
        "write your own parts of an entry (hypothesis, prediction, procedure, gap, next question)"
    ),
    "cli.help.notebook.write.entry_id": "the entry (see 'tutor notebook list')",
    "cli.help.class": "teach a class on one PostgreSQL: init, add-learner, report, leases, break-lease",
    "cli.desc.class": (
        "Set up a class's PostgreSQL (schema, roles, row-level security), add learners with a role and token of their "
        "own, and report on the class. Needs --store postgresql://… (the instructor's connection) or TUTOR_STORE."
    ),
    "cli.help.class.init": "create the schema, the roles and row-level security (idempotent)",
    "cli.help.class.allow_superuser": "set the class up even though your login is a superuser (not advised)",
    "cli.help.class.add_learner": "create a learner's role and print their token, once",
    "cli.help.class.add_learner.name": "the learner's name: lower-case letters, digits, _",
    "cli.help.class.add_learner.host": (
        "the server's address as learners reach it (default: the instructor's host, or 127.0.0.1 for a local socket)"
    ),
    "cli.help.class.learners": "list the learner roles: may they log in, sessions open now, rights beyond a learner's",
    "cli.help.class.learners.json": "the learners as one JSON document",
    "cli.help.class.reset_token": "give a learner a new token (the old one stops working; their sessions end)",
    "cli.help.class.remove_learner": "drop a learner's role (they can no longer log in; their rows stay in the report)",
    "cli.help.class.leases": "list the device leases held now: session, learner, device, for how long, how many wait",
    "cli.help.class.leases.json": "the leases as one JSON document",
    "cli.help.class.break_lease": "end the session holding a lease (a stopped or stuck holder), so the device is free",
    "cli.help.class.break_lease.who": "a session number (from tutor class leases) or a learner (every lease of theirs)",
    "cli.help.class.break_lease.older_than": "break every lease held for at least SECONDS (by the tutor's own account)",
    "cli.help.class.report": "the instructor's view: per exercise, calibration, each learner's C0, the class roofline",
    "cli.desc.class.report": (
        "Per exercise the share of correct predictions and the most common wrong answer; the class's calibration; each "
        "learner's C0 conditions; every learner's measured roofline grouped by device fingerprint. Reads every "
        "learner's rows (run it with the instructor's connection)."
    ),
    "cli.help.class.report.json": "the report as one JSON document",
    "cli.help.class.report.markdown": "the report as Markdown (the default text)",
    "cli.help.serve": "serve the tutor to web browsers (textual-serve); in a class learners log in with name and token",
    "cli.help.serve.host": "address to listen on (default 127.0.0.1)",
    "cli.help.serve.port": "port to listen on (default 8000)",
    "cli.help.serve.max_sessions": "browser sessions served at once, each an app process of its own (default {n})",
    "cli.help.serve.max_failed_logins": (
        "failed logins from one address within 10 minutes that close it to new logins for 15 minutes (default {n})"
    ),
    "cli.help.serve.public_url": "the address browsers use, e.g. https://tutor.example.org behind a TLS proxy",
    "cli.desc.notebook.write": (
        "Write the parts of a Lab Notebook entry that are yours, as the notebook screen does (N in the TUI). The "
        "set-up and the result are the measurement's and cannot be written. TEXT '-' reads the part from standard "
        "input (at most {limit} characters). Control characters are removed."
    ),
    "cli.help.notebook.write.hypothesis": "your hypothesis",
    "cli.help.notebook.write.prediction": "your prediction; refused once its run started (predict first): use --note",
    "cli.help.notebook.write.procedure": "your procedure",
    "cli.help.notebook.write.gap": "your gap (between prediction and result)",
    "cli.help.notebook.write.next_question": "your next question",
    "cli.help.notebook.write.note": "a later thought, added as a new dated note (the prediction stays as it was)",
    "cli.help.telemetry.interval": "seconds between samples (default 1.0, minimum {minimum})",
    "cli.help.telemetry.backend": "auto, nvml, host or replay:FILE (default: auto)",
    "cli.desc.serve": (
        "Each browser tab gets its own app process. With a class's store (--store postgresql://…) every tab opens on "
        "the login screen: the learner's name and token are checked by the database before any of the course is "
        "shown. Without a class store it serves the one learner's progress on this machine: keep it on 127.0.0.1 "
        "then. Put it behind a TLS proxy (--public-url https://…) before learners reach it over a network."
    ),
    # argparse's own words (tutor.commands.parsing)
    "argparse.usage": "usage: ",
    "argparse.positionals": "positional arguments",
    "argparse.options": "options",
    "argparse.help": "show this help message and exit",
    "argparse.version": "show the program's version number and exit",
    "argparse.error": "{prog}: error: {message}",
    "argparse.argument": "argument {argument}: {message}",
    "argparse.required": "the following arguments are required: {names}",
    "argparse.unrecognized": "unrecognized arguments: {args}",
    "argparse.one_of_required": "one of the arguments {names} is required",
    "argparse.not_allowed_with": "not allowed with argument {other}",
    "argparse.invalid_choice": "invalid choice: '{value}' (choose from {choices})",
    "argparse.expected_one": "expected one argument",
    "argparse.expected_at_most_one": "expected at most one argument",
    "argparse.expected_at_least_one": "expected at least one argument",
    "argparse.expected_n.one": "expected {n} argument",
    "argparse.expected_n.other": "expected {n} arguments",
    "argparse.invalid_value": "invalid {type} value: '{value}'",
    "argparse.type.int": "int",
    "argparse.type.float": "float",
    "argparse.ambiguous": "ambiguous option: {option} could match {matches}",
    "argparse.ignored_explicit": "ignored explicit argument '{value}'",
    "argparse.unknown_parser": "unknown parser '{value}' (choices: {choices})",
    "telemetrycli.no_nvml": "NVML is not available: {reason}",
    # tutor.commands.notebook
    "notebookcli.empty": (
        "The Lab Notebook is empty: finish a lab ('tutor lab run ID' or in the tutor) to file its first "
        "entry."
    ),
    "notebookcli.no_entry": "no notebook entry with id {entry} (see 'tutor notebook list')",
    "notebookcli.damaged": "notebook entry {entry} is damaged and is kept as it is (nothing written): {error}",
    "notebookcli.no_lab_entry": "no notebook entry for lab {lab!r} (see 'tutor notebook list')",
    "notebookcli.is_dir": "{path} is a directory; give a file name",
    "notebookcli.too_long": "{part}: at most {limit} characters",
    "notebookcli.nothing_to_write": (
        "nothing to write: give at least one part, e.g. --gap TEXT (see 'tutor notebook write "
        "-h')"
    ),
    "notebookcli.written.one": "Entry {entry} ({lab}): «{part}» written, {n} word.",
    "notebookcli.written.other": "Entry {entry} ({lab}): «{part}» written, {n} words.",
    "notebookcli.prediction_locked": (
        "the prediction of entry {entry} was locked when its run started (predict first); add a later thought as "
        "a note: tutor notebook write {entry} --note TEXT"
    ),
    "notebookcli.note_added": "Entry {entry} ({lab}): note added, dated {when}.",
    # tutor.commands.serve
    "serve.class": (
        "Serving the class at http://{host}:{port} (each learner logs in with their name and token). Ctrl-C stops."
    ),
    "serve.single": (
        "Serving your progress at http://{host}:{port} (no login: whoever reaches this address sees it). Ctrl-C stops."
    ),
    # tutor.measure.errors
    "measure.time_limit": (
        "The measurement ran past its time limit ({limit} s, worked out from its size with a margin) and was stopped. "
        "The machine may be very busy; try again or choose smaller sizes."
    ),
    # tutor.measure.phases: what the measuring engine is doing (progress lines)
    "measure.progress.measuring": "measuring…",
    "measure.progress.roofline": "roofline: {step}",
    "measure.progress.roofline_again": "roofline again: {step}",
    "measure.progress.roofline_measured": "peaks measured",
    "measure.progress.bandwidth": "bandwidth: {kernel} on {mib} MiB arrays",
    "measure.progress.matmul_peak": "matmul peak: {dtype} {shape}",
    "measure.progress.matmul_probe": "matmul: {dtype} {shape} (choosing the size)",
    "measure.progress.preparing": "{workload}: preparing inputs",
    "measure.progress.timing": "{workload}: timing",
    "measure.progress.done": "{workload}: done",
    "measure.progress.vram_inference": "memory of {preset} (inference)",
    "measure.progress.vram_training": "memory of {preset} (training)",
    "measure.progress.vram_fits": "{preset}: fits",
    "measure.progress.vram_does_not_fit": "{preset}: does not fit",
    "measure.progress.working_set": "{mib} MiB ({level}): {gbs} GB/s",
    "measure.progress.gemm_size": "N={n}: {gflops} GFLOP/s",
    "measure.progress.python_measured": "python N={n}: {gflops} GFLOP/s (measured)",
    "measure.progress.python_extrapolated": "python N={n}: {gflops} GFLOP/s (extrapolated ∝ N³)",
    "measure.progress.numpy": "numpy N={n}: {gflops} GFLOP/s",
    "measure.progress.point": "{workload}: intensity {intensity} FLOP/B, {gflops} GFLOP/s",
    "measure.progress.gemm_share": "batch {batch}: {pct} % of the step in GEMMs",
    "measure.progress.decode_build": "decode: building the model sized for this machine",
    "measure.progress.decode_threads": "decode: trying {threads} thread(s)",
    "measure.progress.decode_weights": "decode: reading {mib} MiB of weights to measure the bandwidth that feeds them",
    "measure.progress.decode_batch": "decode: batch {batch}, {tokens} tokens",
    "measure.progress.decode_again": "decode: above its bound, measuring the weights' bandwidth again",
    "measure.progress.gap_round": "decode gap: round {round}/{rounds}, model {model}/{models}",
    "measure.progress.gap_fitted": "decode gap: line fitted",
    "measure.progress.train_build": "training step: building the model, counting FLOPs, warming up",
    "measure.progress.train_flops": "training step: counting FLOPs",
    "measure.progress.train_step": "training step {i}/{steps} (batch {batch} × {seq} tokens)",
    "measure.progress.round": "round {round}/{rounds}: {task}",
    "measure.progress.bench_start": "bench on {device} ({kind})",
    "measure.progress.bench_done": "bench done",
    "measure.progress.measured": "measured",
    "measure.progress.test_point": "point {i}",
    "measure.task.bandwidth": "bandwidth",
    "measure.task.matmul": "matmul {dtype}",
    "measure.task.training": "training",
    "measure.task.decode": "decode",
    "measure.task.decode_bound": "decode bound",
    "measure.task.other": "{name}",
    # tutor.progress.exchange
    "exchange.at_path": "{path}: {problem}",
    "exchange.not_object": "not a GPU Tutor progress export (expected a JSON object)",
    "exchange.format": "not a GPU Tutor progress export (format {found}, expected {expected})",
    "exchange.schema": "the export has schema {found}; this tutor reads up to {known}",
    "exchange.no_tables": "the export has no 'tables' object",
    "exchange.unknown_table": "unknown table {table} in the export",
    "exchange.not_list": "{where} must be a list",
    "exchange.not_row": "{where} must be an object",
    "exchange.unknown_column": "{where}: unknown column {column}",
    "exchange.missing_column": "{where}: missing column {column}",
    "exchange.unexpected": "{where}: unexpected value {value}",
    "exchange.too_long": "{where}: text longer than {limit} characters",
    "exchange.control": "{where}: contains a control character ({char})",
    "exchange.not_finite": "{where}: not a finite number",
    "exchange.outside": "{where}: {value} is not {must}",
    "exchange.located": "{severity}: {problem}",
    "exchange.too_many_rows": "{where}: {count} rows, more than the limit of {limit} a table",
    "exchange.too_many_total": "{where}: more than {limit} rows in all",
    "exchange.not_empty": (
        "the progress store already holds data; use --merge (add what is missing) or --replace (discard the "
        "current progress) — nothing was imported"
    ),
    "exchange.must.timestamp": "a time between 1970 and 2100 (seconds since the epoch)",
    "exchange.must.unit_interval": "a finite number between 0 and 1",
    "exchange.must.count": "a whole number between {low} and {high}",
    "exchange.must.flag": "true, false, 0 or 1",
    "exchange.must.prediction": "an object with 'value', 'choice' and 'confidence'",
    "exchange.must.prediction_value": "an object whose 'value' is a finite number (or null)",
    "exchange.must.prediction_choice": "an object whose 'choice' is text (or null)",
    "exchange.must.prediction_confidence": "an object whose 'confidence' is between 0 and 1",
    "exchange.must.id": "an id (1 to 64 of a-z, 0-9 and '-', not starting with '-')",
    "exchange.must.prediction_choice_id": ("an object whose 'choice' is a choice id (1 to 64 of a-z, 0-9, '-' "
                                           "and '_', not starting with '-' or '_') or null"),
    "exchange.must.entry_id": "an id (1 to 64 of a-z, 0-9 and '-', not starting with '-') or empty",
    # tutor.results.reading
    "result.missing": "missing",
    "result.expected": "expected {what}, got {got}",
    "result.what.object": "an object",
    "result.what.number": "a number",
    "result.what.integer": "an integer",
    "result.what.text": "text",
    "result.what.flag": "true or false",
    "result.what.flag_or_null": "true, false or null",
    "result.what.texts": "a list of text",
    "result.what.numbers": "an object of numbers",
    "result.what.list": "a list",
    "result.what.device": "a device object or kind",
    "result.what.source": "where the truth came from",
    # tutor.grading.predict
    "predict.not_number": "'{text}' is not a number",
    "predict.not_finite": "'{text}' is not a finite number",
    "predict.unknown_unit": "'{unit}' is not a unit this answer takes: write it in {units} (no unit: {default})",
    "predict.no_unit_here": "'{unit}': this number takes no unit",
    "predict.out_of_scale": "'{text}' is out of scale for a prediction (between {low} and {high}{unit})",
    "predict.read_as": "read as {value} {unit} (you wrote {typed} {typed_unit})",
    "predict.confidence_not_number": "confidence '{text}' is not a number ({low}–100 %)",
    "predict.confidence_not_finite": "confidence must be a finite number ({low}–100 %)",
    "predict.confidence_outside": "confidence {text} is outside {low}–100 %",
    "predict.outside_range": "{value} is outside the accepted range, {low} to {high}{unit}",
    "predict.not_positive": "{value}: the prediction must be a positive number",
    "predict.empty": "the prediction is empty",
    "predict.size_not_positive": "{value} GB: the size must be positive",
    "predict.not_a_choice": "'{text}' is not one of the choices: {choices}",
    # tutor.progress.lease
    "lease.ahead_one": "1 learner ahead",
    "lease.ahead_many": "{n} learners ahead",
    "lease.waiting_tui": "Waiting for the shared device: {queue} (Esc cancels)",
    "lease.waiting_cli": "waiting for the shared device: {queue} (Ctrl-C cancels)",
    "lease.held_by": "{who} is measuring on this device",
    "lease.cancelled": "cancelled while waiting for the device",
    # tutor.progress.store_errors
    "store.table.sections_read.one": "{n} section read",
    "store.table.sections_read.other": "{n} sections read",
    "store.table.attempts.one": "{n} attempt",
    "store.table.attempts.other": "{n} attempts",
    "store.table.lab_runs.one": "{n} lab run",
    "store.table.lab_runs.other": "{n} lab runs",
    "store.table.notebook_entries.one": "{n} notebook entry",
    "store.table.notebook_entries.other": "{n} notebook entries",
    "store.table.bench_runs.one": "{n} bench run",
    "store.table.bench_runs.other": "{n} bench runs",
    "store.table.doctor_runs.one": "{n} doctor run",
    "store.table.doctor_runs.other": "{n} doctor runs",
    "store.error": "the progress store {path} cannot be used: {detail}",
    "store.newer_schema": (
        "{path} was written by a newer GPU Tutor (schema {found}, this one knows {known}); upgrade the tutor"
    ),
    "store.busy": (
        "the progress store {path} is locked by another program (for more than {seconds} s); close the other tutor and "
        "try again"
    ),
    "store.full": "the disk holding {path} is full; free some space and try again (nothing was lost)",
    "store.read_only": (
        "the progress store {path} cannot be written (read-only file or folder); choose another folder with --data-dir"
    ),
    "store.io": "I/O error while using the progress store {path} ({detail}); the file was left as it is",
    "store.cannot_open": "cannot open the progress store {path}: {detail}",
    "store.not_a_store": (
        "{path} is not a GPU Tutor progress store (not a database of the tutor's); it was left as it is. "
        "Name a new file, a folder, or an existing store"
    ),
    "store.no_path": "--store {path} names no file: give a path, sqlite:PATH, or a folder",
    "store.corrupt": "the progress store {path} is corrupt ({detail}); restart the tutor to move it aside",
    "store.rejected": "the progress store refused an out-of-range value ({detail}); nothing was saved",
    "store.denied": "the progress database {path} refused: {detail}",
    "store.unreachable": "the progress server {path} cannot be reached ({detail}); nothing was saved, try again",
    "store.schema_writable": (
        "refused to use {path}: {roles} can create objects in its schema {schema}, and could make the tutor run "
        "their code as you; its owner must run REVOKE CREATE ON SCHEMA {schema} FROM {roles}"
    ),
    "store.schema_foreign": (
        "refused to use {path}: its schema {schema} holds {objects} of {roles}, made while they could create "
        "there; such a function or operator could run as you. A superuser removes them with DROP OWNED BY {role} "
        "in this database (or the schema's owner drops each one: psql's \\df and \\do {schema}.* list them)"
    ),
    "store.no_token": (
        "the progress server {path} wants your token: pass --token-file FILE, add a ~/.pgpass line, or run in a "
        "terminal to be asked"
    ),
    "store.token_file_unreadable": "the token file {path} cannot be read: {detail}",
    "store.token_file_open": (
        "the token file {path} may be read by others: it is not used; chmod 600 {path} (and ask for a new token if "
        "others could read it)"
    ),
    "store.token_file_empty": "the token file {path} holds no token (the first line is empty)",
    "store.no_row": "there is no {what} {id} of yours in {path}; nothing was changed",
    "store.data_dir": "the data folder {path} cannot be used: {detail}",
    "store.recovered": (
        "tutor: the progress database was corrupt; it was moved to {backup} and a fresh one was started (on {at}). "
        "'tutor progress acknowledge' hides this notice."
    ),
    # tutor.practice.failures
    "fail.cancelled": "the measurement was cancelled",
    "fail.prediction_kept": "your prediction is kept",
    "fail.interrupted": "the measurement was interrupted (Ctrl-C)",
    "fail.closing": "the measurement was stopped when the tutor closed",
    "fail.killed": (
        "the measurement process was killed (SIGKILL) by the system: most likely it ran out of memory. Close other "
        "programs or try a smaller size"
    ),
    "fail.oom_size": (
        "the measurement ran out of memory: it asked for {size} and there was not that much. Close other programs or "
        "try a smaller size"
    ),
    "fail.oom": "the measurement ran out of memory. Close other programs or try a smaller size",
    "fail.oom_gpu": " (GPU memory)",
    "fail.crashed": "the measurement process crashed ({detail})",
    "fail.exited": "the measurement process ended unexpectedly ({detail})",
    "fail.timeout": "the measurement took too long and was stopped ({detail})",
    "fail.failed": "error inside the measurement: {detail}",
    "fail.engine": "the tutor failed while measuring: {detail}",
    "fail.doctor": "the doctor could not finish ({detail})",
    "fail.stalled": "No sign of life from the measurement for {seconds} s: it seems stalled. Esc cancels it.",
    # tutor.practice.labs
    "lab.predict.default": "Before measuring: what do you expect to see? Write your prediction.",
    "lab.predict.need_number": "Write a number (in {unit}) before measuring.",
    "lab.predict.need_positive": "Write a positive number (in {unit}): {text} cannot be the result.",
    "lab.predict.need_text": "Write your prediction before measuring: predict first, then measure.",
    # tutor.practice.reveal
    "verdict.correct": "correct",
    "verdict.inconclusive": "inconclusive",
    "ex.truth.undecided": "not decided by this run (it leans {leaning})",
    "ex.measure_again": "Measuring again with the same locked prediction (attempt #{id}).",
    "ex.not_counted": "not counted",
    "verdict.partly": "partly",
    "verdict.wrong": "wrong",
    "truth.answer_key": "the exercise's answer key",
    "truth.measured": "measured on {device}",
    "truth.measured_labelled": "{measured} — {label}",
    "truth.label.extrapolated": "measured at small scale, extrapolated",
    "truth.label.gpu": "measured on the GPU",
    "truth.bound": "measured on {device}: arithmetic intensity against the measured ridge point",
    "truth.formula_measured": "the formula “{formula}” applied to measured inputs (measured on {device})",
    "truth.formula_given": "the formula “{formula}” applied to the exercise's inputs",
    "truth.cpu_fit": (
        "the lesson's formula at full scale (weights, gradients and Adam, activations, context); on a CPU the "
        "small-scale measurement is shown beside it as evidence"
    ),
    "truth.this_machine": "this machine",
    "formula.weights_bytes.name": "weights = parameters × bytes per element",
    "formula.kv_cache_bytes.name": "KV cache = 2 × layers × KV heads × head size × tokens × batch × bytes per element",
    "formula.inference_bytes.name": "inference memory = weights + KV cache (CUDA context not included)",
    "formula.cpu_peak_flops.name": "CPU peak = cores × clock × FLOPs per cycle per core",
    "formula.activation_bytes.name": "activations = layers × s·b·h·(34 + 5·a·s/h) × bytes/2 (Korthikanti et al. 2022;"
                                     " for Llama an approximation: HF eager attention keeps 1.24–1.37× of it)",
    "formula.adam_training_bytes.name": "training memory with Adam = parameters × 16 bytes + activations",
    "formula.cuda_context_bytes.name": "estimated CUDA context (outside torch's allocator)",
    "formula.decode_bound_tokens_per_s.name": "decode bound = bandwidth ÷ bytes per token",
    "formula.arithmetic_intensity.name": "arithmetic intensity = FLOPs ÷ bytes moved",
    "formula.ridge_point.name": "ridge point = peak FLOP/s ÷ peak bandwidth",
    "formula.roofline_attainable.name": "roofline = min(peak FLOP/s, intensity × bandwidth)",
    "formula.gemm_flops.name": "GEMM FLOPs = 2·M·N·K",
    "formula.gemm_bytes.name": "GEMM bytes = (M·K + K·N + M·N) × bytes per element",
    "formula.gemm_intensity.name": "GEMM intensity = 2·M·N·K ÷ ((M·K + K·N + M·N) × bytes)",
    "formula.attention_flops.name": "attention FLOPs = 4·B·H·S²·D (QKᵀ and PV)",
    "formula.transformer_forward_flops_per_token.name": "forward FLOPs per token ≈ 2 × parameters",
    "formula.transformer_training_flops_per_token.name": "training FLOPs per token ≈ 6 × parameters",
    "formula.mfu.name": "MFU = model FLOP/s ÷ theoretical peak FLOP/s",
    "formula.fraction_of_peak.name": "fraction of peak = achieved FLOP/s ÷ peak FLOP/s",
    "formula.flops_ratio.name": "FLOP/s ratio = one rate ÷ another",
    "formula.bandwidth_ratio.name": "bandwidth ratio = one bandwidth ÷ another",
    "formula.speedup_over_bandwidth_bound.name": "speed-up = (bytes ÷ bandwidth) ÷ measured time",
    "formula.time_at_rate_s.name": "time = FLOPs ÷ FLOP/s",
    "formula.time_at_bandwidth_s.name": "time = bytes ÷ bandwidth",
    "ex.prediction": "Your prediction",
    "ex.verdict": "Verdict",
    "ex.score": "score",
    "ex.truth": "The truth",
    "ex.source": "where it comes from",
    "ex.explanation": "Explanation",
    "ex.measured": "Measured",
    "ex.confidence_short": "confidence",
    "ex.reproduced": "Reproduces the first pass (passed in both, pass 1 first): it counts for C0.",
    "ex.not_reproduced": "Does not reproduce the first pass (pass 1: {first}): it does not count yet.",
    "ex.fig.time": "time: median {median} ms · min {min} ms · CV {cv} % · {runs} runs",
    "ex.fig.best": "best",
    "ex.fig.intensity": "arithmetic intensity {ai} FLOP/byte",
    "ex.fig.roofs": "{bw} % of the bandwidth roof · {compute} % of the compute roof",
    "ex.fig.roofline": "measured roofline: {bw} GB/s",
    "ex.fig.ridge": ", ridge {ridge} FLOP/byte",
    "ex.fig.cached": " (cached)",
    "ex.fig.datasheet": "datasheet ({name}): {bw} GB/s",
    "ex.fig.telemetry": "telemetry during the run — {line}",
    # tutor.practice.sizing
    "setup.dram": "This run: {what}, {multiple}× your {llc} {llc_name} (the last level; {source}): it measures DRAM.",
    "setup.partial": (
        "This run: {what}, only {multiple}× your {llc} {llc_name} (the last level; {source}): part of it may stay in "
        "cache and "
        "come out above your DRAM."
    ),
    "setup.cache": (
        "This run: {what}, which fit in your {llc} {llc_name} (the last level; {source}): it measures the cache, not "
        "DRAM."
    ),
    "setup.arrays": "{arrays} arrays of {each} ({total} in all)",
    "setup.one_array": "one array of {total}",
    "setup.bytes": "{total} in memory",
    "setup.read": "read from the system",
    "setup.simulated": "SIMULATED from {path}, not this machine's caches",
    "setup.fallback": "a typical size: yours could not be read",
    "setup.capped": " The size was capped by the memory budget or the free RAM.",
    # tutor.practice.unfinished
    "unfinished.line": "#{id} {exercise} (pass {pass_n}): prediction “{prediction}” locked on {when}, never measured",
    "unfinished.title": "Unfinished attempts (the tutor closed or the measurement was killed):",
    "unfinished.cli_hint": (
        "  measure it: tutor exercise run {exercise} --resume {id} · discard it: tutor exercise discard {id}"
    ),
    "unfinished.screen": (
        "Attempt #{id} (prediction “{prediction}”, {when}) was locked and never measured. You can measure it now with "
        "that prediction, or discard it."
    ),
    "unfinished.open_exercise": "Open the exercise to measure it now or discard it.",
    "unfinished.resume": "Measure it now",
    "unfinished.discard": "Discard it",
    "unfinished.discarded": "Attempt #{id} discarded.",
    # tutor.progress.class_report
    "creport.title": "Class report",
    "creport.learners": "{n} learners: {names}",
    "creport.exercises": "Exercises",
    "creport.col_exercise": "Exercise",
    "creport.col_graded": "Graded",
    "creport.col_correct": "Correct",
    "creport.col_wrong": "Most common wrong answer",
    "creport.wrong_choice": "'{answer}' ({count}×)",
    "creport.wrong_high": "too high ({count}×, median ×{ratio})",
    "creport.wrong_low": "too low ({count}×, median ×{ratio})",
    "creport.calibration": "Class calibration",
    "creport.brier": "Brier {brier} over {n} graded predictions (0 is perfect; 0.25 is always saying 50 %)",
    "creport.bucket": "at {low}–{high} % confidence: {right} of {total} right ({rate})",
    "creport.c0": "C0 per learner",
    "creport.col_learner": "Learner",
    "creport.roofline": "Class roofline (by device)",
    "creport.col_bw": "Measured bandwidth",
    "creport.col_flops": "Measured FLOP/s (fp32)",
    "creport.col_ridge": "Ridge point",
    "creport.col_source": "From",
    "creport.none": "nothing yet",
    "creport.device": "Device {name} (fingerprint {fp})",
    # tutor.progress.classroom
    "class.bad_name": (
        "not a valid learner name '{name}': 2 to 31 lower-case letters, digits or _, starting with a letter, and "
        "not a word PostgreSQL reserves (user, current_user, all, public…) nor pg_… or tutor_…"
    ),
    "class.exists": "a role {name} already exists on the server; choose another name",
    "class.leases_none": "No device is leased now.",
    "class.lease_line": "session {pid}  {learner}  on {device}  {since}  {waiting} waiting",
    "class.lease_for": "held for {seconds} s",
    "class.lease_since_unknown": "held since an unknown time (not the tutor's lease)",
    "class.lease_unknown": "a device it does not name",
    "class.lease_broken": "Broken: {line}",
    "class.break_what": (
        "say which lease to break: a session number or a learner (see tutor class leases), or --older-than SECONDS"
    ),
    "class.lease_not_found": "no device lease held now matches; see tutor class leases",
    "class.break_denied": (
        "this role may not end {learner}'s session: as the server's superuser run GRANT pg_signal_backend TO {owner}"
    ),
    "class.instructor_superuser": (
        "refused: {name} is a superuser, and a class needs no more than a CREATEROLE role (see the README): "
        "anything a learner made run as the instructor would run with every right on the server. Create one "
        "(createuser --createrole --pwprompt teacher) and run tutor class init as it, or pass --allow-superuser"
    ),
    "class.learner_privileged": (
        "refused: the learner role {name} has more than a learner's rights ({extra}; {more} more like it). As its "
        "administrator, REVOKE those roles FROM {name} and ALTER ROLE {name} NOSUPERUSER NOCREATEROLE NOCREATEDB "
        "NOBYPASSRLS NOREPLICATION, then run tutor class init again"
    ),
    "class.learners_none": "No learners yet: tutor class add-learner NAME",
    "class.learner_line": "{name}  {login}  {sessions} sessions open{extra}",
    "class.learner_can_login": "may log in",
    "class.learner_cannot_login": "may not log in",
    "class.learner_extra": "  MORE THAN A LEARNER: {extra}",
    "class.learner_token_changed": (
        "  TOKEN CHANGED by the learner (ALTER ROLE ... PASSWORD): tutor class reset-token {name} sets yours again"
    ),
    "class.learners_tokens_unknown": (
        "Whether a learner replaced their token with a password of their own is not shown: only a superuser may "
        "read pg_authid, and a token set before this check has no fingerprint. tutor class reset-token NAME sets "
        "a new one whatever they did."
    ),
    "class.token_reset": "New token for {name}: the old one no longer works.",
    "class.learner_removed": "Learner {name} removed: the role is gone; their rows stay in the report.",
    "class.not_a_learner": (
        "{name} is not a learner of this class (tutor class learners lists them); nothing was changed"
    ),
    "class.not_postgres": "a class needs a PostgreSQL store: pass --store postgresql://… (or TUTOR_STORE)",
    # tutor.ui.keys
    "key.help": "Help",
    "key.back": "Back",
    "key.lang": "es/en",
    "key.lang_letter": "es/en",
    "key.quit": "Quit",
    "key.telemetry": "Telemetry",
    "key.telemetry_enlarge": "Enlarge telemetry",
    "key.hint": "Hint",
    "key.lock": "Lock",
    "key.run": "Measure",
    "key.next_pending": "Next pending",
    "key.view_code": "View code",
    "key.open": "Open",
    "key.second_pass": "2nd pass",
    "key.progress": "Progress",
    "key.notebook": "Notebook",
    "key.next_section": "Next",
    "key.previous_section": "Previous",
    "key.write_lock": "Write lock",
    "key.reset_lesson": "Reset lesson",
    "key.reset_exercise": "Reset exercise",
    "key.reset_all": "Reset all",
    "key.save": "Save",
    "key.export": "Export to Markdown",
    "key.class_report": "Class report",
    "key.app.quit_all": "Quit",
    "key.palette": "palette",
    "key.close": "Close",
    "key.cancel": "Cancel",
    # tutor.ui.marks
    "marks.reproduced": "reproduced",
    "pass2.closed": "Pass 2 opens once you have attempted pass 1 of this exercise (Enter opens it).",
    # tutor.ui.screens.course_map
    "map.loading": "loading the course… {done} of {total} files",
    "map.more_lessons": "… and {n} more lessons",
    "map.load_failed": "The course could not be loaded",
    # tutor.ui.widgets.telemetry_panel
    "tel.waiting_banner": "Telemetry: waiting for the first sample…",
    "tel.replay": "▶ REPLAY",
    "tel.na": "N/A",
    "tel.no_devices": "No devices to show.",
    "tel.reading": "Reading the devices…",
    "tel.waiting": "waiting for the first sample…",
    "tel.lost": "LOST — no readings (the GPU needs a reset or a reboot)",
    "tel.busy": "busy",
    "tel.mem_bus": "mem bus",
    "tel.power": "power",
    "tel.cores": "cores",
    "tel.load": "load",
    "tel.busy_note": "busy: share of time any kernel ran (not SM occupancy)",
    "tel.mem_bus_note": "mem bus: share of time memory was read or written",
    "tel.clocks_held": "clocks held by: ",
    "tel.processes": "processes:",
    "tel.note": "note: {note}",
    "tel.minutes_ago": "minutes ago",
    "tel.chart_title": "% over the last minutes",
    "tel.chart_replay": " (replay)",
    "tel.chart_empty": "history: no samples yet",
    "tel.stale": "⚠ STALE — last reading {age} s ago (the driver is not answering)",
    "tel.stale_host": "⚠ STALE — last reading {age} s ago (the host sampler has not run: the machine is very busy)",
    "tel.stale_replay": "⚠ STALE — last reading {age} s ago (the recorded trace has no newer sample)",
    "tel.expand_hint": "ctrl+t expands the telemetry",
    # tutor.ui.app
    "palette.help": "Help: keys of this screen",
    "palette.lang": "Language: español / English",
    "palette.map": "Course map",
    "palette.map_help": "Back to the map",
    "palette.progress": "Progress",
    "palette.progress_help": "C0 checklist, lessons, calibration and history",
    "palette.notebook": "Lab Notebook",
    "palette.notebook_help": "Your lab entries: edit, export to Markdown",
    "palette.doctor": "Doctor: environment diagnosis",
    "palette.doctor_help": "Driver, torch, CUDA and the environment lock",
    "palette.bench": "Bench: measure this machine",
    "palette.bench_help": "The bench lab",
    "bench.cli.could_not_finish": "the bench could not finish: {reason}",
    "bench.cli.took": "took {seconds} s",
    "bench.cli.wrote": "wrote {files}",
    "bench.cli.json_on_stdout": "JSON report on stdout",
    "bench.cv_spread": "CV: the spread across that run's own rounds",
    "bench.estimator": (
        "each figure: the median of {rounds} interleaved rounds, a round's value the best of its calls "
        "(training: of {train_steps}); decode: the median of {decode_rounds} rounds, its bound's "
        "bandwidth the best of {read_passes} over the weights in each; CV = the spread across the rounds"
    ),
    "bench.no_previous": (
        "No previous run on this fingerprint to compare with: run the bench again for the second pass."
    ),
    "bench.fig.peak_bandwidth_gbs": "peak bandwidth",
    "bench.fig.matmul": "matmul peak {dtype}",
    "bench.fig.ridge_flops_per_byte": "ridge point (fp32)",
    "bench.fig.decode_tokens_per_s": "decode, batch 1",
    "bench.fig.decode_bound_tokens_per_s": "decode bound, batch 1",
    "bench.fig.train_tokens_per_s": "training step",
    "bench.fig.mfu": "MFU",
    "bench.col.figure": "figure",
    "bench.col.value": "value",
    "bench.col.unit": "unit",
    "bench.col.vs": "vs previous",
    "bench.table.title": "tutor bench ({mode}) on {kind}: {name}  [fingerprint {fingerprint}]",
    "bench.table.agrees": "agrees",
    "bench.table.differs": "DIFFERS",
    "bench.table.agree": "agree",
    "bench.table.disagree": "do NOT agree",
    "bench.table.compared": (
        "the two passes {verdict} (previous run {mode}): each figure within max({tol}, 2·√(CV₁² + CV₂²)), at "
        "most {cap}"
    ),
    "bench.shift": (
        "Every matmul peak moved the same way (×{lo} to ×{hi}{memory}): the cores computed at another speed during "
        "one of the runs (other work on a shared host, the clock), not one measurement going wrong. Run both again "
        "when the machine is quiet."
    ),
    "bench.shift.machine": (
        "Every figure moved the same way (the matmul peaks ×{lo} to ×{hi}, the memory figures ×{mlo} to ×{mhi}): the "
        "whole machine was busier or quieter during one of the runs (another program, a shared host's other work), "
        "not one measurement going wrong. Run both again when the machine is quiet."
    ),
    "bench.shift.memory": "; the memory figures ×{lo} to ×{hi}",
    "bench.table.no_previous": "no previous run on this fingerprint to compare with",
    "bench.table.warning": "warning: {warning}",
    "bench.md.title": "GPU Tutor bench — {device}",
    "bench.md.mode": "mode: {mode}; device: {kind}; fingerprint `{fingerprint}`",
    "bench.md.env": "torch {torch}, {cuda}, Python {python}, {threads} torch threads",
    "bench.md.cuda": "CUDA {version}",
    "bench.md.no_cuda": "no CUDA in this torch build",
    "bench.md.took": "took {seconds} s",
    "bench.md.agrees": "agrees",
    "bench.md.differs": "differs",
    "bench.md.agree": "agree",
    "bench.md.disagree": "do not agree",
    "bench.md.compared": (
        "Compared with the previous run on this fingerprint, the two passes {verdict} within {tol} (each "
        "figure within max({tol}, 2·√(CV₁² + CV₂²)), at most {cap}: twice the two runs' noise combined)."
    ),
    "bench.md.how": "How these were measured",
    "bench.method.mfu": "MFU over a theoretical peak of {gflops} GFLOP/s = {source}",
    "bench.clock.cpufreq": "from cpufreq's cpuinfo_max_freq (the highest boost clock)",
    "bench.clock.cpuinfo": (
        "from /proc/cpuinfo's 'cpu MHz' (no cpufreq here: the current clock, or in a VM the host's base rate, "
        "which the cores exceed when they boost)"
    ),
    "bench.clock.implied": (
        "at least: the measured {dtype} matmul needs it, while the clock {clock} is {reported} GHz (so this "
        "peak is a lower bound and an MFU over it an upper bound)"
    ),
    "bench.peak.cpu": "{cores} cores × {ghz} GHz {clock} × {per_cycle} FLOP per cycle per core",
    "bench.peak.datasheet": "the datasheet: {source}",
    "bench.estimator.median": "the median over the rounds of each round's value",
    "bench.note.bandwidth": (
        "peak bandwidth: STREAM copy (2 words per element), {estimator}, a round's value the best of its "
        "copies; {rounds} rounds interleaved with the other figures, arrays of {array} (last-level cache "
        "{llc})"
    ),
    "bench.note.bandwidth_stream": (
        "peak bandwidth: STREAM copy (2 words per element), {best}: the fastest copy of {rounds} rounds "
        "interleaved with the other figures, as stream.c reports its best rate (triad, 3 words: {triad}). Beside "
        "it, the median of the rounds' best copies, {median}: on a shared machine other programs only ever slow "
        "a copy down, and while one of them holds a core, a copy split over every core runs at the pace of the "
        "thread that shares it — so the median says how busy the machine was, and the best what its memory "
        "moves. Arrays of {array} (last-level cache {llc})"
    ),
    "bench.estimator.stream": (
        "peak bandwidth: the fastest copy over {rounds} interleaved rounds, as STREAM reports it; every other "
        "figure: the median of the rounds, a round's value the best of its calls (training: of {train_steps}); "
        "decode: the median of {decode_rounds} rounds, its bound's bandwidth the best of {read_passes} over the "
        "weights in each; CV = the spread across the rounds"
    ),
    "bench.note.matmul": (
        "matmul peak: torch.mm of random square matrices ({n}³, the fastest size probed), {estimator}, a "
        "round's value the best of {calls} calls"
    ),
    "bench.note.ridge": "ridge point: fp32 matmul peak ÷ peak bandwidth",
    "bench.note.decode": (
        "decode: the bundled transformer of {params} parameters (random weights, {dtype}), {steps} tokens "
        "after a {prompt}-token prompt; bound = bandwidth that feeds the weights (measured reading them) ÷ "
        "bytes per token (weights read once per step + KV cache)"
    ),
    "bench.note.training": (
        "training: batch {batch} × {seq} tokens, AdamW, {precision}; MFU = FLOPs per step (FlopCounterMode) ÷ "
        "step time ÷ the theoretical {dtype} peak ({peak}); {fraction} of the measured matmul peak"
    ),
    "bench.note.peak": "{gflops} GFLOP/s, {source}",
    "bench.note.unknown": "unknown",
    "bench.note.threads": (
        "threads: torch pinned to {threads} for the whole run (decode at batch 1 with {decode}, the faster on "
        "a short probe)"
    ),
    "bench.note.rounds": (
        "rounds: {count} interleaved rounds of {order}, then {decode} of decode (its model, sized to the "
        "cache, does not fit in memory beside them); each headline is {estimator}"
    ),
    "bench.note.comparison": (
        "comparison: two runs agree when each headline figure differs by at most max(floor, {k}·√(CV₁² + "
        "CV₂²)) — twice the two runs' noise combined — with a floor of {floor} and a ceiling of {cap}"
    ),
    "bench.note.cv": (
        "CV = the spread across the rounds' values (of the estimator's inputs, not of single samples); ridge "
        "and MFU combine their inputs' CVs"
    ),
    "bench.round.bandwidth": "bandwidth",
    "bench.round.training": "training",
    "bench.round.matmul": "matmul {dtype}",
    "palette.lesson": "Lesson: {title}",
    "palette.lab": "Lab: {title}",
    "palette.exercise": "Exercise: {title}",
    "palette.open_lesson": "Open: {title}",
    "palette.lesson_help": "Lesson {id}",
    "palette.placeholder": "Search for commands…",
    "palette.no_matches": "No matches found",
    "palette.quit": "Quit",
    "palette.quit_help": "Leave the tutor now (a measurement in flight is stopped)",
    "palette.screenshot": "Screenshot",
    "palette.screenshot_help": "Save an SVG screenshot of this screen",
    # the one notice for work that did not finish (ui/app.py on_work_failed): its title, by kind
    "work.exercise": "Exercise measurement",
    "work.lab": "Lab measurement",
    "work.doctor": "Environment check",
    "work.login": "Logging in to the class",
    "work.course": "The course could not be loaded",
    "work.roofline": "Re-measuring the roofline",
    "work.other": "Background task",
    "work.error": "unexpected error: {detail}",
    # tutor.ui.screens.class_report
    "creport.chart": "Class roofline: arithmetic intensity (FLOP/B) against GFLOP/s; one colour per device",
    "creport.chart_empty": "No learner has measured their roofline yet.",
    # tutor.ui.screens.code
    "code.intro": (
        "This is exactly what is timed: the function that prepares the data (outside the timing), the lambda that is "
        "measured, and the timing loop that calls it. Esc closes."
    ),
    "code.none": "This measurement does not time a single function (doctor, bench or VRAM): no code to show.",
    # tutor.ui.screens.doctor
    "doctor.title": "Environment check (tutor doctor)",
    "doctor.cli.lock_written": (
        "Wrote the environment lock to {path}; {requirements} (pip install -r) and {dockerfile} (FROM "
        "{image}) rebuild it. For C0, check it from another process (best: the rebuilt environment) with "
        "'tutor doctor --check-lock'."
    ),
    "doctor.cli.title": "GPU Tutor doctor — {torch} on {system} {machine}, Python {python}",
    "doctor.cli.no_torch": "no torch",
    "doctor.cli.cannot_write_lock": "cannot write the environment lock {path}: {reason}",
    "doctor.cli.not_recorded": "warning: this doctor run was not recorded in the progress store: {reason}",
    "doctor.cli.summary": "Doctor {verdict}: {fail} failed, {warn} warning(s), {ok} ok, {skip} skipped ({seconds} s).",
    "doctor.cli.passed": "passed",
    "doctor.cli.failed": "FAILED",
    "doctor.headline.gpu_usable": "NVIDIA GPU: {names} — torch can use it.",
    "doctor.headline.gpu_unusable": "NVIDIA GPU: {names} — torch cannot use it yet.",
    "doctor.headline.no_driver": "An NVIDIA GPU is present but the driver does not answer — torch cannot use it.",
    "doctor.headline.cpu": "No NVIDIA GPU found — on this machine the course runs on the CPU.",
    "doctor.lock.difference": "{name}: {locked} in the lock, {current} now",
    "doctor.lock.absent": "absent",
    "doctor.lock.wrote": (
        "wrote the environment lock to {path}, pinning {pinned}; it rebuilds from {requirements} (pip) or "
        "{dockerfile} (FROM {image})"
    ),
    "doctor.lock.none": "no environment lock yet ({path})",
    "doctor.lock.none_fix": "Write one with 'tutor doctor --lock' once the stack is healthy.",
    "doctor.lock.rewrite": "Rewrite it with 'tutor doctor --lock'.",
    "doctor.lock.age": ", {age} ago",
    "doctor.lock.written": "written {created}{age}",
    "doctor.lock.undated": "written an unknown date{age}",
    "doctor.lock.pins": "; pins {pins}",
    "doctor.lock.no_rebuild": "; it records nothing that rebuilds it — write it again with 'tutor doctor --lock'",
    "doctor.lock.matches": "the environment matches the lock {path} ({written}){extra}",
    "doctor.lock.differs": "{n} difference(s) from the lock {path} ({written}): {keys}",
    "doctor.lock.differs_fix": (
        "If the change was intended, re-run the benchmarks and write a new lock with 'tutor doctor --lock'; "
        "otherwise restore the locked versions."
    ),
    "doctor.lockfile.missing": "no environment lock at {path} (write one with 'tutor doctor --lock')",
    "doctor.lockfile.unreadable": "cannot read the environment lock {error}",
    "doctor.lockfile.not_json": "{error}",
    "doctor.lockfile.no_schema": "none",
    "doctor.lockfile.not_object_here": "not an environment lock (expected a JSON object)",
    "doctor.lockfile.schema_here": "not an environment lock (schema {schema}, expected {expected})",
    "doctor.running": "Checking torch, the driver, the GPU and the environment…",
    "doctor.rerun": "Run again",
    "doctor.write_lock": "Write lock",
    "doctor.passed": "Passed: {fail}, {warn}, {ok}, {skip} ({seconds} s).",
    "doctor.failed": "Failed: {fail}, {warn}, {ok}, {skip} ({seconds} s).",
    "doctor.lock_written": "Environment lock written to {path}",
    "doctor.status.ok": "ok",
    "doctor.status.warn": "warn",
    "doctor.status.fail": "fail",
    "doctor.status.skip": "skip",
    "doctor.join": "{first}; {rest}",
    "doctor.space": "{first} {rest}",
    "doctor.paren": " ({text})",
    "doctor.crashed": "this check crashed: {error}",
    "doctor.crashed_fix": "Please report it; the other checks are unaffected.",
    "doctor.gpu_names.evidence": "an NVIDIA GPU ({evidence})",
    "doctor.torch.missing": "torch cannot be imported ({error})",
    "doctor.torch.not_installed": "not installed",
    "doctor.torch.install": (
        "Install it into this environment: pip install torch (add --index-url "
        "https://download.pytorch.org/whl/cu128 for an NVIDIA GPU)."
    ),
    "doctor.torch.build_rocm": "ROCm {version} build",
    "doctor.torch.build_cuda": "CUDA {cuda} build{cudnn}",
    "doctor.torch.build_cpu": "CPU-only build (no CUDA)",
    "doctor.torch.devices.one": " ({n} device)",
    "doctor.torch.devices.other": " ({n} devices)",
    "doctor.torch.ok": "torch {version}, {build}; torch.cuda.is_available() = {available}{devices}",
    "doctor.gpu.cc": "compute capability {cc}, ",
    "doctor.gpu.memory_unknown": "memory unknown",
    "doctor.gpu.device": "GPU{index} {name} ({cc}{arch}{mem}; via {source})",
    "doctor.gpu.with_driver": "{details}; driver {driver}",
    "doctor.gpu.no_nvml": "an NVIDIA GPU is here ({evidence}) but NVML cannot talk to it ({error})",
    "doctor.gpu.nvml_found_none": "NVML found no devices",
    "doctor.gpu.install_driver": (
        "Install or load the NVIDIA driver (Linux: the distribution's nvidia-driver package, then reboot; "
        "WSL2: install the Windows driver only) and check that nvidia-smi lists the GPU."
    ),
    "doctor.gpu.looked_nvml": "NVML: {error}",
    "doctor.gpu.no_devices": "no devices",
    "doctor.gpu.looked_proc": "no /proc/driver/nvidia",
    "doctor.gpu.looked_dev": "no /dev/nvidia0",
    "doctor.gpu.looked_pci": "no NVIDIA device on the PCI bus",
    "doctor.gpu.looked_smi": "nvidia-smi: {state}",
    "doctor.gpu.present": "present",
    "doctor.gpu.looked_no_smi": "no nvidia-smi",
    "doctor.gpu.none": "no NVIDIA GPU on this machine ({looked})",
    "doctor.gpu.cpu_course": (
        "Nothing to fix for the CPU path: every lab and exercise measures with torch on the CPU, telemetry "
        'shows CPU and RAM, and C0 is earned as "C0 (CPU)". Needing a GPU: NVML telemetry, CUDA timing, the '
        "sm_120 checks."
    ),
    "doctor.torch_build.not_installed": "torch is not installed",
    "doctor.torch_build.cpu_wheel": (
        "torch {version} is a CPU-only wheel, but this machine has {gpus}: torch.cuda.is_available() is False "
        "and every number would come from the CPU"
    ),
    "doctor.torch_build.use_cuda": "Replace it with a CUDA build: {hint} (CUDA 12.8+ for RTX 50-series).",
    "doctor.torch_build.cpu_ok": "torch {version} is a CPU build, the right one for a machine without a GPU",
    "doctor.torch_build.rocm": "torch {version} is a ROCm build; this course targets NVIDIA CUDA",
    "doctor.torch_build.rocm_fix": "For an NVIDIA GPU install a CUDA build: {hint}",
    "doctor.torch_build.cuda_ok": "torch {version} is built for CUDA {cuda}",
    "doctor.driver.no_gpu": "no NVIDIA GPU, so no driver to check",
    "doctor.driver.unreadable": "the NVIDIA driver version could not be read{nvml}",
    "doctor.driver.install": "Install the NVIDIA driver and check that nvidia-smi runs.",
    "doctor.driver.supports": ", which supports CUDA up to {cuda}",
    "doctor.driver.seen": "driver {version} ({where}){supports}",
    "doctor.driver.blackwell": "{seen}; {gpu} needs the R{branch} branch or newer",
    "doctor.driver.blackwell_fix": "Install driver ≥ {minimum} (R570+; the open kernel modules on Linux).",
    "doctor.driver.no_torch_cuda": "{seen}; torch has no CUDA build to compare it with",
    "doctor.driver.no_minimum": "{seen}; no minimum on record for CUDA {cuda}",
    "doctor.driver.check_notes": "Check NVIDIA's CUDA release notes for the driver this CUDA needs.",
    "doctor.driver.ok": "{seen}; torch's CUDA {cuda} needs ≥ {needed}",
    "doctor.driver.update": (
        "Update the NVIDIA driver to ≥ {needed}{wsl}, or install a torch built for an older CUDA (e.g. "
        "{older})."
    ),
    "doctor.driver.wsl_note": " on Windows (WSL2 uses the Windows driver; install nothing inside WSL)",
    "doctor.driver.minor_compat": (
        "{seen}; torch's CUDA {cuda} wants ≥ {needed} and runs on this one only through minor version "
        "compatibility (no PTX JIT)"
    ),
    "doctor.driver.too_old": (
        '{seen}; torch\'s CUDA {cuda} needs ≥ {needed} — torch reports "The NVIDIA driver on your system is '
        'too old"'
    ),
    "doctor.cuda_available.no_gpu": "no NVIDIA GPU: torch runs on the CPU",
    "doctor.cuda_available.cpu_build": "torch has no CUDA build (see torch_build)",
    "doctor.cuda_available.ok": "torch.cuda.is_available() = True, {n} device(s)",
    "doctor.cuda_available.container_no_dev": "this container has no /dev/nvidia0",
    "doctor.cuda_available.unavailable": "torch is a CUDA build but torch.cuda.is_available() = False{reasons}",
    "doctor.cuda_available.fix": (
        'Look at the driver, cuda_visible_devices and container checks; python -c "import torch; '
        'torch.cuda.init()" prints the underlying CUDA error.'
    ),
    "doctor.kernel_image.no_pair": "no CUDA build of torch and NVIDIA GPU to match",
    "doctor.kernel_image.arch_empty": "empty",
    "doctor.kernel_image.cc_unknown": "{name}: compute capability unknown",
    "doctor.kernel_image.sass": "{name} is {sm}; torch has {sass}",
    "doctor.kernel_image.ptx": (
        "{name} is {sm}; torch has no {sm} machine code, only PTX {ptx} (JIT-compiled on first launch: slow "
        "start, and below peak)"
    ),
    "doctor.kernel_image.ptx_fix": "Install a torch build with {sm} kernels: {hint}",
    "doctor.kernel_image.none": "{name} is {sm}, {arch_name}; torch's arch list [{arch}] has nothing that runs on it",
    "doctor.kernel_image.fix_cuda128": (
        "Install a torch built for CUDA 12.8 or newer, whose wheels include {sm}: {hint}"
    ),
    "doctor.kernel_image.fix_include": "Install a torch build that includes {sm}.",
    "doctor.kernel_image.not_run": "{seen}; tiny kernel not run",
    "doctor.kernel_image.ran": "{seen}; a tiny kernel ran on {device} in {seconds} s",
    "doctor.kernel_image.no_image": '{seen}; the tiny kernel failed: "CUDA error: {error}"',
    "doctor.kernel_image.fix_generic": "Install a torch build with kernels for this GPU: {hint}",
    "doctor.kernel_image.timeout": "{seen}; {error}",
    "doctor.kernel_image.hang_fix": (
        "Something hangs in CUDA initialisation: check nvidia-smi and dmesg for Xid errors."
    ),
    "doctor.kernel_image.failed": "{seen}; the tiny kernel failed: {error}",
    "doctor.kernel_image.run_to_see": (
        'Run python -c "import torch; torch.ones(1, device=\'cuda\')" to see the full error.'
    ),
    "doctor.wsl.not_wsl": "not WSL2",
    "doctor.wsl.linux_libcuda": (
        "WSL2, but a Linux driver's libcuda is installed inside WSL ({found}); it shadows the Windows "
        "driver's"
    ),
    "doctor.wsl.linux_libcuda_fix": (
        "Remove the Linux NVIDIA driver from WSL (e.g. sudo apt remove --purge 'nvidia-driver-*' "
        "'libnvidia-compute-*'); WSL2 needs only the Windows driver."
    ),
    "doctor.wsl.missing": "WSL2, but {path} is missing: the Windows NVIDIA driver does not expose CUDA to WSL",
    "doctor.wsl.missing_fix": (
        "Install the current NVIDIA driver on Windows (not inside WSL), then wsl --shutdown and reopen."
    ),
    "doctor.wsl.ok": (
        "WSL2; CUDA comes from the Windows driver ({path}); no Linux driver inside WSL, as it should be (NVML "
        "cannot list GPU processes under WSL2)"
    ),
    "doctor.container.not_in": "not in a container",
    "doctor.container.passed_through": (
        "in a container ({evidence}); the GPU is passed through (NVIDIA Container Toolkit)"
    ),
    "doctor.container.not_passed": (
        "in a container ({evidence}); the host's GPU is not passed through (no /dev/nvidia0 usable)"
    ),
    "doctor.container.not_passed_fix": (
        "Start the container with --gpus all (Docker with the NVIDIA Container Toolkit installed; Podman: "
        "--device nvidia.com/gpu=all)."
    ),
    "doctor.container.none": (
        "in a container ({evidence}); no GPU passed in, and none on the host as far as can be seen"
    ),
    "doctor.container.none_fix": (
        "If the host does have an NVIDIA GPU: install the NVIDIA Container Toolkit there and run the "
        "container with --gpus all."
    ),
    "doctor.cvd.unset": "CUDA_VISIBLE_DEVICES is not set: every GPU is visible",
    "doctor.cvd.no_gpu": "{seen}; no NVIDIA GPU here anyway",
    "doctor.cvd.fix": "Unset CUDA_VISIBLE_DEVICES, or set it to GPU indices that exist (e.g. 0).",
    "doctor.cvd.empty": "is empty",
    "doctor.cvd.starts_with": "starts with {bad}, which is not a GPU index or UUID",
    "doctor.cvd.none_visible": '{seen} {why}: CUDA sees no GPU (torch: "No CUDA GPUs are available")',
    "doctor.cvd.stops": "{seen}: CUDA stops at {bad}, so only {shown} is visible",
    "doctor.cvd.ok": "{seen}: CUDA sees {n} GPU(s)",
    "doctor.alloc_conf.no_value": "{item} has no ':value'",
    "doctor.alloc_conf.unknown": "unknown option {option}",
    "doctor.alloc_conf.unset": "PYTORCH_CUDA_ALLOC_CONF is not set: the caching allocator's defaults",
    "doctor.alloc_conf.named": "{name}: {problem}",
    "doctor.alloc_conf.async": "(cudaMallocAsync backend: memory_allocated figures differ from the native allocator)",
    "doctor.alloc_conf.problems": "{seen}; {problems} — torch refuses unknown options when CUDA starts",
    "doctor.alloc_conf.fix": "Fix or remove the entry; known options: {known}",
    "doctor.alloc_conf.ok": "{seen} (VRAM figures in the course are measured with these settings)",
    "doctor.gpu_memory.none": "no GPU memory to check",
    "doctor.gpu_memory.of": " of {gib} GiB",
    "doctor.gpu_memory.others": "{gpu}: {n} other process(es) hold {held} MiB{total}: {who}",
    "doctor.gpu_memory.driver_used": " ({mib} MiB used by the driver/display)",
    "doctor.gpu_memory.no_other": "{gpu}: no other compute process{used}",
    "doctor.gpu_memory.in_use": "{gpu}: {mib} MiB in use{total} (processes not listable here)",
    "doctor.gpu_memory.unknown": "{gpu}: memory use unknown",
    "doctor.gpu_memory.close": (
        "Close the other programs using the GPU (nvidia-smi lists them) before measuring: they take VRAM and "
        "bandwidth."
    ),
    # tutor.ui.screens.exercise
    "ex.confidence": "Confidence ({low}–100 %)",
    "ex.size_gb": "Size you predict (GB, optional)",
    "ex.lock": "Lock prediction",
    "ex.measure": "Measure",
    "ex.reveal": "Reveal",
    "ex.hint": "Hint",
    "ex.hint_n": "Hint {n} of {total}",
    "ex.no_more_hints": "No more hints.",
    "ex.no_hints_pass2": "Second pass: no hints, no theory — rebuild without looking.",
    "ex.locked": "Prediction locked and stored (attempt #{id}). Now measure.",
    "ex.lock_first": "Lock your prediction first.",
    "ex.running": "Measuring on {device}… (Esc cancels)",
    "ex.cancelling": "Cancelling…",
    "ex.cancel": "Cancel the measurement (Esc)",
    "ex.failed": "No measurement: {reason}. Your prediction stays stored; lock again to retry.",
    "ex.workload": "Workload",
    "ex.device": "Device",
    "ex.device_gpu": "{name} (CUDA if torch can use it; else the CPU)",
    "ex.device_cpu_only": "CPU — no NVIDIA GPU found: measured with torch on the CPU",
    "ex.device_auto": "the GPU when torch can use one, else the CPU",
    "ex.target": "Target",
    "ex.nothing_measured": "Nothing to measure: the truth comes from the formula or the answer key.",
    "ex.pass": "pass {n}",
    "ex.your_guess": "your guess",
    "ex.your_workload": "your workload (measured)",
    "ex.capacity": "capacity",
    "ex.next_pending": "Next pending exercise",
    "ex.roofline_first": (
        "First the roofline of this machine is measured — its bandwidth (copies of large arrays) and its peak FLOP/s "
        "(a large GEMM) — to compare your workload against. Only the first time on this machine: it takes about a "
        "minute, then it is kept."
    ),
    "ex.all_done": "No pending exercises left in the course: all passed.",
    # tutor.ui.screens.help
    "help.title": "Keys on this screen",
    "help.close": "Esc or ? closes this help.",
    "help.palette": "Command palette: open any screen, lesson or action",
    "help.everywhere": "(on every screen)",
    "help.marks": "What the marks mean",
    "marks.help.passed": "passed (score {pass_score} or more)",
    "marks.help.partial": "partial credit: scored, under the pass mark",
    "marks.help.failed": "tried, no credit",
    "marks.help.not_tried": "not tried yet (or a lab not run)",
    "marks.help.two": "an exercise's two marks: pass 1, then pass 2 (no hints, no theory)",
    "marks.help.started": "lesson started, not finished",
    "marks.help.unread": "section not read yet",
    "marks.help.invalid": "a lesson file that did not load (its error is shown)",
    "marks.help.reproduced": "pass 2 reproduced pass 1",
    # tutor.ui.widgets.lab_plot
    "plot.no_points": "(no points to draw yet)",
    "plot.cannot_draw": "(the plot does not fit at this size; the figures are in the result table)",
    "plot.ridge": "ridge {ridge} FLOP/B",
    "plot.caches": "caches: {caches}",
    "plot.axis.working_set.x": "working set (bytes)",
    "plot.axis.working_set.y": "GB/s",
    "plot.axis.gemm_sizes.x": "N",
    "plot.axis.gemm_sizes.y": "GFLOP/s",
    "plot.axis.naive_vs_numpy.x": "N",
    "plot.axis.naive_vs_numpy.y": "GFLOP/s",
    "plot.axis.gemm_share.x": "tokens per step",
    "plot.axis.gemm_share.y": "% of the step in GEMMs",
    "plot.axis.roofline_points.x": "arithmetic intensity (FLOP/byte)",
    "plot.axis.roofline_points.y": "GFLOP/s",
    # tutor.ui.widgets.roofline_chart
    "chart.roof.measured": "measured: {bandwidth} GB/s, {flops} GFLOP/s",
    "chart.roof.datasheet": "datasheet: {bandwidth} GB/s, {flops} GFLOP/s",
    "chart.zero_flop": "{label} (0 FLOP/B, drawn at {at})",
    "chart.axis.intensity": "FLOP/byte",
    "chart.axis.gflops": "GFLOP/s",
    # tutor.ui.screens.lab
    "lab.goal": "Goal",
    "lab.predict.placeholder_number": "a number in {unit}",
    "lab.predict.placeholder_text": "your prediction",
    "lab.predict.start": "Lock prediction and measure",
    "lab.predict.locked": "Your prediction (locked): {prediction}",
    "lab.status.waiting": "Waiting for your prediction.",
    "lab.status.starting": "Starting the measurement process…",
    "lab.status.running": "Measuring… (Esc cancels)",
    "lab.status.done": "Measured on {device} in {seconds} s. Notebook entry filed (N to open it).",
    "lab.status.cancelled": "Cancelled. Nothing was stored; your prediction stays locked (ctrl+r to measure again).",
    "lab.status.failed": "No measurement: {reason}",
    "lab.notice.cancelled": "Measurement cancelled.",
    "lab.notice.filed": "Lab Notebook entry filed for {lab}.",
    "lab.result": "Result",
    "lab.history": "Last run ({when}, run #{n}; your prediction then: {prediction}). Predict again to measure anew.",
    "lab.extrapolated": "extrapolated",
    "lab.measured": "measured",
    "lab.plot.roofline": "measured roofline",
    "lab.plot.prediction": "your prediction",
    "lab.plot.simulated_level": "{level} (simulated)",
    "lab.series.measured": "measured",
    "lab.series.measured_of": "{series} (measured)",
    "lab.series.extrapolated": "{series} (extrapolated ∝ N³)",
    "notebook.naive.extrapolated": "extrapolated (∝ N³)",
    "notebook.naive.note": "Python floats are float64, so numpy runs in float64 too.",
    "lab.series.kernels": "kernels (measured)",
    "lab.doctor.running": "Running tutor doctor…",
    "key.cancel_back": "Cancel/Back",
    "key.rerun": "Run again",
    # tutor.ui.screens.login
    "login.title": "GPU Tutor — class",
    "login.intro": "Type your learner name and the token your instructor gave you.",
    "login.name": "Name",
    "login.token": "Token",
    "login.enter": "Enter",
    "login.checking": "Checking…",
    "login.refused": "Wrong name or token.",
    "login.unreachable": "The class's server does not answer; try again.",
    "login.too_many": "Too many failed attempts.",
    "login.throttled": "Too many failed logins from your address ({client}): try again in {minutes} min.",
    # tutor.ui.screens.notebook
    "notebook.prompt.hypothesis": "Your hypothesis, before looking at the result: what you expected and why.",
    "notebook.prompt.next_question": "The next question this measurement leaves you with.",
    "notebook.title": "Lab Notebook",
    "notebook.h.hypothesis": "Hypothesis",
    "notebook.h.prediction": "Prediction",
    "notebook.h.setup": "Set-up",
    "notebook.h.procedure": "Procedure",
    "notebook.h.result": "Result",
    "notebook.h.gap": "The gap and its explanation",
    "notebook.h.next_question": "Next question",
    "notebook.w.notebook": "Lab Notebook",
    "notebook.w.empty": "_(not written yet)_",
    "notebook.w.damaged": "damaged, could not be read: {error}",
    "notebook.w.no_entries": "No entries yet.",
    "notebook.w.lab": "Lab",
    "notebook.w.lesson": "Lesson",
    "notebook.w.run": "run",
    "notebook.w.date": "Date",
    "notebook.w.device": "Device",
    "notebook.w.fingerprint": "Device fingerprint",
    "notebook.w.no_device": "The device of this run was not recorded.",
    "notebook.w.measured_on": "Measured on",
    "notebook.w.telemetry": "Telemetry during the run",
    "notebook.w.run_what": "What ran",
    "notebook.w.exported": "Exported",
    "notebook.s.caches": "Caches: {sizes}.",
    "notebook.s.ws_peak": "Peak {peak} GB/s at {at} ({level}); {last} GB/s at {last_at} ({last_level}).",
    "notebook.s.gemm_best": "Best {best} GFLOP/s at N = {n}.",
    "notebook.s.gemm_share": (
        "At {low} tokens per step GEMMs take {low_pct} % of the step; at {high}, {high_pct} % ({clock})."
    ),
    "notebook.s.naive_ratio": "At N = {n} (both measured) numpy is {ratio}× faster.",
    "notebook.s.no_points": "(no points)",
    "notebook.s.peak_bw": "peak bandwidth (measured)",
    "notebook.s.peak_mm": "peak matmul {dtype} (measured)",
    "notebook.s.ridge": "ridge point (float32)",
    "notebook.s.cached": "(roofline from this device's cache)",
    "notebook.cols.working_set": "working set|level|GB/s|CV",
    "notebook.cols.gemm_sizes": "N|GFLOP/s|time (s)|FLOP/B",
    "notebook.cols.naive_vs_numpy": "N|python (s)|python is|numpy (s)|numpy GFLOP/s|ratio",
    "notebook.cols.roofline_points": "kernel|FLOP/B|GFLOP/s|GB/s",
    "notebook.cols.gemm_share": "tokens per step|GEMM %|optimizer %|element-wise %|softmax %",
    "notebook.setup.cpu_model": "CPU",
    "notebook.setup.physical_cores": "physical cores",
    "notebook.setup.logical_cpus": "logical CPUs",
    "notebook.setup.torch_threads": "torch threads",
    "notebook.setup.max_ghz": "max clock (GHz)",
    "notebook.setup.capability": "compute capability",
    "notebook.setup.sms": "SMs",
    "notebook.setup.total_memory_bytes": "memory",
    "notebook.setup.driver": "driver",
    "notebook.setup.cuda": "CUDA",
    "notebook.setup.max_sm_clock_mhz": "max SM clock (MHz)",
    "notebook.setup.max_mem_clock_mhz": "max memory clock (MHz)",
    "notebook.setup.power_limit_w": "power limit (W)",
    "notebook.setup.caches": "caches",
    "notebook.setup.software": "software",
    "notebook.w.yes": "yes",
    "notebook.w.no": "no",
    "notebook.w.datasheet": "datasheet",
    "notebook.w.note": "Note",
    "notebook.w.notes": "Notes added after the result",
    "notebook.w.locked": "Locked when the run started (predict first): add a later thought as a note below.",
    "notebook.fig.workload": "workload",
    "notebook.fig.achieved_gbs": "achieved GB/s",
    "notebook.fig.achieved_gflops": "achieved GFLOP/s",
    "notebook.fig.intensity": "arithmetic intensity (FLOP/B)",
    "notebook.fig.median_time": "median time (s)",
    "notebook.fig.cv": "CV",
    "notebook.fig.bound": "bound",
    "notebook.bound.memory": "memory",
    "notebook.bound.compute": "compute",
    "notebook.vram.part": "part",
    "notebook.vram.formula": "formula: {part}",
    "notebook.vram.extrapolated": "measured (extrapolated to full size)",
    "notebook.vram.peak_allocated": "measured: peak allocated",
    "notebook.vram.peak_reserved": "measured: peak reserved",
    "notebook.vram.context": "CUDA context ({source})",
    "notebook.vram.total": "total",
    "notebook.vram.fits": "fits",
    "notebook.vram.does_not_fit": "does not fit",
    "notebook.vram.the_model": "the model",
    "notebook.vram.mode.inference": "inference",
    "notebook.vram.mode.training": "training",
    "notebook.vram.part.weights": "weights",
    "notebook.vram.part.kv_cache": "KV cache",
    "notebook.vram.part.weights_grads_adam": "weights, gradients and Adam state",
    "notebook.vram.part.activations": "activations",
    "notebook.vram.part.total": "total",
    "notebook.vram.source.measured": "measured: device memory used − torch reserved",
    "notebook.vram.source.estimate": "estimated by the lesson's formula",
    "notebook.vram.headline": (
        "**{name}**, {mode}, {dtype}, batch {batch}, {seq} tokens: **{total} GB** ({label}) against "
        "{capacity} GB → **{verdict}**."
    ),
    "notebook.vram.ratio": "Measured ÷ formula: {ratio}×.",
    "notebook.vram.oom": "The run ran out of memory: that is the evidence it does not fit.",
    "notebook.doctor.passed": "Doctor passed.",
    "notebook.doctor.failed": "Doctor FAILED.",
    "notebook.empty": "The notebook is empty: finish a lab and its entry is filed here.",
    "notebook.saved": "Entry saved.",
    "notebook.note_placeholder": "A later thought? Write it here: Ctrl+S adds it as a new dated note.",
    "notebook.note_added": "Note added.",
    "notebook.exported": "Notebook exported to {path}",
    "notebook.export_failed": "Could not export: {reason}",
    "notebook.from_run": "(from the run; not edited)",
    # tutor.ui.screens.progress
    "progress.brier": "Brier score {brier} over {predictions} (0 is perfect; 0.25 is always saying 50 %)",
    "progress.title": "Progress",
    "progress.lessons": "Lessons",
    "progress.calibration": "Calibration",
    "progress.calibration.bucket": "of your {low}–{high} % guesses, {right} of {total} were right",
    "progress.cli.c0_passed": "{name}: PASSED",
    "progress.cli.c0_not_yet": "{name}: not yet",
    "progress.cli.cpu_only": "(CPU-only evidence: this is C0 (CPU), not the GPU checkpoint)",
    "progress.cli.lesson": "{mark} {passed}/{n} exercises, {read}/{total} sections",
    "progress.cli.passes": " · pass 1 {pass1}/{n}, pass 2 {pass2}/{n}, reproduced {reproduced}/{n}",
    "progress.cli.reproduced": " · reproduced",
    "exercise.cli.legend": (
        "marks: pass 1, pass 2 (✓ passed, ~ partial credit, not passed, ✗ tried, no credit, ○ not tried); pass 2 "
        "(--pass 2, no hints, no "
        "theory) opens once pass 1 was attempted and counts for C0 when it reproduces it"
    ),
    "exercise.kind.bound": "bound",
    "exercise.kind.number": "number",
    "exercise.kind.fit": "fit",
    "exercise.kind.diagnose": "diagnose",
    "exercise.cli.unknown": "unknown exercise '{id}' (known: {known})",
    "exercise.cli.did_you_mean": "unknown exercise '{id}'; did you mean {suggestions}? (all: 'tutor exercise list')",
    "exercise.cli.columns": "passes|exercise|kind|lesson|title|answers",
    "exercise.cli.predict_or_resume": "give --predict VALUE, or --resume N for an unfinished attempt",
    "exercise.cli.budget": "--budget must be between {low} and {high} seconds",
    "exercise.cli.prediction": "Your prediction",
    "exercise.cli.device": "{workload} runs only on {devices}, not {device}",
    "exercise.cli.none": "(no exercises in this course)",
    "progress.cli.marks": "marks: pass 1, pass 2 (✓ passed, ~ partial credit, ✗ no credit, ○ not tried)",
    "progress.cli.acknowledged": "acknowledged {n} recovery notice(s); the backups were not touched",
    "progress.cli.nothing_to_acknowledge": "nothing to acknowledge",
    "progress.cli.exported": "exported to {file}: {rows}",
    "progress.cli.imported_refuse": "imported from {file}: {rows}",
    "progress.cli.imported_merge": "imported from {file} (merged with what was here): {rows}",
    "progress.cli.imported_replace": "imported from {file} (replacing what was here): {rows}",
    "progress.cli.unknown_exercise": (
        "unknown exercise '{id}': it is not in the course and has no progress (see 'tutor exercise list')"
    ),
    "progress.cli.unknown_lesson": (
        "unknown lesson '{id}': it is not in the course and has no progress (see 'tutor lessons list')"
    ),
    "progress.cli.needs_confirmation": "deleting {what} needs confirmation: run it in a terminal, or pass --yes",
    "progress.cli.confirm": "Delete {what} ({summary})? This cannot be undone. Type '{word}' to confirm:",
    "progress.cli.nothing_deleted": "nothing was deleted (type {word}, in full, to confirm)",
    "progress.cli.reset_done": "deleted {what}: {rows}",
    "progress.cli.quarantined": (
        "{n} out-of-range row(s) were kept aside when the store was upgraded (table quarantined_rows)"
    ),
    "progress.state.locked": "locked",
    "progress.state.graded": "graded",
    "progress.state.cancelled": "cancelled",
    "progress.state.failed": "failed",
    "progress.history": "History",
    "progress.no_graded": "No graded attempts yet.",
    "progress.damaged.attempt": (
        "Attempt {id} ({label}) could not be read: {where}: {what}. Left out of this report; the rest is complete."
    ),
    "progress.damaged.lab_run": (
        "Lab run {id} ({label}) could not be read: {where}: {what}. Left out of this report; the rest is complete."
    ),
    "progress.confirm": "Delete {what}? ({summary}). This cannot be undone.",
    "progress.deleted": "Deleted: {what}",
    "progress.yes": "Yes, delete",
    "progress.no": "Cancel",
    "progress.lesson_columns": "lesson|✓|exercises|sections|pass 1|pass 2|reproduced",
    "progress.exercises": "Exercises: pass 1, pass 2 (✓ passed, ~ partial credit, ✗ no credit, ○ not tried)",
    "progress.exercise_columns": "exercise|passes|pass 1|pass 2|reproduced",
    "progress.reproduced": "reproduced",
    "progress.history_columns": "#|when|exercise|pass|state|verdict|score|conf.|hints",
    "progress.what_lesson": "lesson {id}",
    "progress.what_exercise": "exercise {id}",
    "progress.what_all": "ALL progress",
    "progress.cpu": "CPU-only evidence: this is C0 (CPU), not the GPU checkpoint.",
    # decode's bound from the roof that feeds the weights (issue 11 item 3)
    "decode_roof.dram": (
        "Decode bound from DRAM: {weights} of weights, {multiple}× your {llc} {llc_name} ({source}); "
        "read where they live, the weights arrive at {gbs} (your roofline's STREAM copy: {copy})."
    ),
    "decode_roof.partial": (
        "Decode bound from the bandwidth measured on the weights: {weights}, only {multiple}× your {llc} "
        "{llc_name} ({source}), so part of them may stay in cache; they are read at {gbs} (your DRAM's STREAM copy: "
        "{copy})."
    ),
    "decode_roof.budget": (
        " The {budget} memory budget keeps the model from reaching {target}× the cache: on this machine a pure "
        "DRAM bound cannot be tested."
    ),
    "decode_roof.cache": (
        "Decode bound from your {llc_name}: the {weights} of weights fit in your {llc} {llc_name} ({source}), so the "
        "bound "
        "uses the bandwidth measured reading them there ({gbs}), not your DRAM's ({copy})."
    ),
    "decode_roof.gpu": (
        "Decode bound from the GPU's memory: {weights} of weights, read at {gbs} (your roofline's STREAM copy: "
        "{copy})."
    ),
    "decode_roof.noise": (
        "Decode measured {fraction} of its bound: above it, but within its noise (±{margin} with a per-step CV "
        "of {cv}); read it as \"at the bound\", not as a record."
    ),
    "decode_roof.remeasured": (
        "Decode measured {fraction} of its bound, more than its noise allows, so the tutor measured the "
        "bandwidth that feeds the weights again ({before} → {after}) and judged it against the better of the "
        "two: {fraction_after}."
    ),
    "decode_roof.still_above": (
        " Still above: on a busy machine the step times are unreliable; read it as a bound, not a record."
    ),
    "setup.decode.dram": (
        "This run: the reference transformer with {params} parameters, {weights} of FP32 weights, {multiple}× "
        "your {llc} {llc_name} (the last level; {source}): its bound is DRAM's."
    ),
    "setup.decode.partial": (
        "This run: the reference transformer with {params} parameters, {weights} of FP32 weights, only "
        "{multiple}× your {llc} {llc_name} (the last level; {source}): part may stay in cache, so the bound will use "
        "the "
        "bandwidth measured reading these weights."
    ),
    "setup.decode.cache": (
        "This run: the reference transformer with {params} parameters, {weights} of FP32 weights, which fit in "
        "your {llc} {llc_name} (the last level; {source}): the bound will use the cache's bandwidth, measured reading "
        "these weights, not your DRAM's."
    ),
    "setup.decode.budget": " The {budget} memory budget does not let it reach {target}× the cache.",
    # when a roof was measured, and measuring it again on request (issue 11 item 4)
    "roof.within_noise": (
        "Tutor's note: {fraction} of the measured roof, above it by less than the two measurements' own noise"
        " (this run's CV {cv}, the roof's {roof_cv}), so it beats no hardware limit. Measure the roof again "
        "on a quieter machine (F5) to compare them sharply."
    ),
    "roof.within_noise_run": (
        "Tutor's note: {fraction} of the measured roof, above it by less than this run's own noise (CV {cv}),"
        " so it beats no hardware limit. Measure the roof again on a quieter machine (F5) to compare them "
        "sharply."
    ),
    "roof.stamp": "roof measured {age}, load {load}{cv}",
    "roof.stamp.no_load": "roof measured {age}{cv}",
    "roof.stamp.cv": ", CV {cv}",
    "lab.read.vs": "You predicted {predicted} {unit}; measured {measured} {unit} (measured ÷ predicted = {ratio}).",
    "lab.read.no_figure": "You predicted {predicted} {unit}; this run has no figure to compare it with.",
    "lab.read.faster_when_bigger": (
        "Breaks the expected shape: at {where} ({series}) it ran ×{by} faster than at the smaller {smaller}. A bigger "
        "size should not be faster: one of the two was disturbed (another program, a clock change), or at small "
        "sizes the call's fixed cost dominates."
    ),
    "lab.read.above_roof": (
        "Breaks the expected shape: at {where}, past the last-level cache, it moved {gbs} GB/s, above the measured "
        "roof's {roof} GB/s: the roof was measured low (under load?) or this point was not in DRAM. Measure the "
        "roof again (F5)."
    ),
    "lab.read.noisy": "Noisy point: at {where} ({series}) its repeats spread {cv}; read it as a range, not a number.",
    "lab.read.vs_roof": (
        "At {where}, past the last-level cache: {gbs} GB/s; the roof your exercises are graded against (the same "
        "STREAM copy, on its own arrays) says {roof} GB/s: ×{ratio} of it."
    ),
    "lab.read.vs_roof_apart": (
        "They differ by more than the noise (±{margin}): one of the two was measured while other programs ran, or "
        "the roof is old. Measure the roof again (F5) on a quiet machine."
    ),
    "lab.read.rerun": (
        "Run the lab again (ctrl+r on its screen, or tutor lab run) to see whether these points hold; close other "
        "programs first."
    ),
    "lab.read.spread": "Largest spread among the points: CV {cv}.",
    "roof.probe.agreed": "checked by a probe before grading (bandwidth ×{bw}, matmul ×{flops} of the roof)",
    "roof.probe.disagreed": (
        "MEASURED AGAIN: a probe before grading disagreed with the cached roof (bandwidth ×{bw}, matmul ×{flops})"
    ),
    "roof.probe.slower": (
        "a probe before grading found the machine slower now than its roof (bandwidth ×{bw}, matmul ×{flops}): the "
        "roof is kept, and this run's figures may be low"
    ),
    "roof.probe.busy": (
        "a probe before grading disagreed with it (bandwidth ×{bw}, matmul ×{flops}) but the machine is busy: kept"
    ),
    "roof.provisional": "PROVISIONAL roof ({why}): measured again once the machine is quiet, or now with F5",
    "roof.provisional.busy": "other programs used {used} of your {cpus} cores while it was measured",
    "roof.provisional.busy_load": "the machine was busy while it was measured",
    "roof.provisional.loose": "its {what} peak stood {cv} above its typical repeat (not reproduced)",
    "roof.provisional.bandwidth": "bandwidth",
    "roof.provisional.matmul": "matmul",
    "busy.other_programs": (
        "Other programs used {used} of your {cpus} cores while this ran: these figures may be low. Close them and "
        "measure again."
    ),
    "busy.steal": "The virtual machine's host took {steal} of the CPU time while this ran: these figures may be low.",
    "busy.simulated": "(SIMULATED load: TUTOR_SIMULATED_LOAD is set; not read from this machine)",
    "busy.quiet": "Other programs used {used} of your {cpus} cores while this ran (quiet enough).",
    "roof.age.now": "just now",
    "roof.age.s": "{n} s ago",
    "roof.age.min": "{n} min ago",
    "roof.age.h": "{n} h ago",
    "roof.age.d": "{n} d ago",
    "roof.remeasuring": "Measuring the roofline again… (Esc cancels)",
    "roof.remeasured_request": (
        "Roofline measured again: {bw}, {flops} in fp32 (before: {bw0}, {flops0}). Your next measurement is "
        "judged against it."
    ),
    "roof.remeasure_stopped": "Re-measuring the roofline stopped; the previous roof stays.",
    "key.remeasure_roof": "Re-measure roofline",
    "key.attempts": "Attempts",
    "attempts.title": "Your attempts: {title}",
    "attempts.none": "No attempt yet: predict, then measure.",
    "attempts.none_here": "Open an exercise (or highlight one in Progress) to see its attempts.",
    "attempts.pass": "pass {n}",
    "attempts.number": "Attempt {n}",
    "attempts.prediction": "prediction: {prediction} (confidence {confidence})",
    "attempts.time": "median {ms} ms (CV {cv} %)",
    "attempts.device": "measured on {device}",
    "attempts.truth": "answer of this run: {truth}",
    "attempts.truth_leaning": "not decided by this run (it leans {truth})",
    "attempts.state.locked": "locked, not measured yet",
    "attempts.state.failed": "the measurement failed",
    "attempts.state.cancelled": "cancelled",
    "decode_roof.gap.dram": (
        "Where the weights live: the largest model's {weights} are {multiple}× your {llc} {llc_name}, so they come "
        "from DRAM; read with decode's own GEMVs they arrive at {gbs}, the roof the gap is split against (your STREAM "
        "copy, for comparison: {copy})."
    ),
    "decode_roof.gap.partial": (
        "Where the weights live: the largest model's {weights} are only {multiple}× your {llc} {llc_name}, so part "
        "may stay in cache; read with decode's own GEMVs they arrive at {gbs}, the roof the gap is split against "
        "(your DRAM's STREAM copy: {copy})."
    ),
    "decode_roof.gap.cache": (
        "Where the weights live: the largest model's {weights} fit in your {llc} {llc_name}, so decode reads them "
        "from the cache, at {gbs} with its own GEMVs: that cache bandwidth is the roof the gap is split against, "
        "not your DRAM's STREAM copy ({copy})."
    ),
    "decode_roof.gap.gpu": (
        "Where the weights live: the largest model's {weights}, in the GPU's memory, read at {gbs} with decode's "
        "own GEMVs, the roof the gap is split against (your STREAM copy: {copy})."
    ),
    "roof.points_remeasured": (
        "Tutor's note: {points} landed above the cached roof (up to {fraction} of it), so that roof was suspect "
        "(measured while the machine was busy, or the machine changed). The tutor measured your roofline again; the "
        "plot and these figures show the new one."
    ),
    # tutor.grading.kinds
    "grade.high": "high",
    "grade.low": "low",
    "grade.number.within": "Within {tolerance}: you said {said}, the truth is {truth}.",
    "grade.number.close": "Close but {direction} by {off}: you said {said}, the truth is {truth}.",
    "grade.number.some": (
        "Far: {direction} by {off}, though inside the widest band this exercise still credits (up to {band}): you said "
        "{said}, the truth is {truth}."
    ),
    "grade.number.off": "Off by {off} ({direction}): you said {said}, the truth is {truth}.",
    "grade.number.within_spread": "Within what this measurement can tell apart: you said {said}, the truth is {truth}.",
    "grade.number.spread": (
        "The measurement itself varied by ±{spread} (σ across its own repeats), within this exercise's "
        "tolerance."
    ),
    "grade.number.spread_band": (
        "The measurement itself varied by ±{spread} (σ across its own repeats), more than this exercise's "
        "tolerance: anything from {low} to {high} (truth ± 2σ) counts as the measured value. A quieter "
        "machine gives a narrower range."
    ),
    "grade.bound.memory": "memory-bound",
    "grade.bound.compute": "compute-bound",
    "grade.bound.inconclusive": (
        "Inconclusive on this run ({why}; it leans {real}). Not counted: neither your score, your calibration nor "
        "the second pass sees it. Measure it again when the machine is quiet."
    ),
    "grade.bound.why.near_ridge": "its intensity is too close to your measured ridge, given the ridge's own spread",
    "grade.bound.why.rates_disagree": "the rate it reached points to the other roof than its intensity does",
    "grade.bound.why.roof_provisional": "the roof it was judged against is provisional",
    "grade.bound.why.disturbed": "other programs took part of the machine while it ran",
    "grade.bound.right": "Right: it is {real}.",
    "grade.bound.wrong": "Not this time: you said {said}, the measurement says {real}.",
    "grade.fit.fits": "fits",
    "grade.fit.does_not_fit": "does not fit",
    "grade.fit.right": "Right: it takes {size}, so it {fits} in {capacity}.",
    "grade.fit.wrong": "Not this time: it takes {size}, so it {fits} in {capacity}.",
    "grade.fit.your_size": "Your size: {size}.",
    "grade.diagnose.right": "Right cause.",
    "grade.diagnose.wrong": "Not this one: the cause is “{cause}”.",
    # tutor.telemetry.format
    "window.busy_mean": "GPU busy mean {value}",
    "window.cpu_mean": "CPU mean {value}",
    "window.peak": ", peak {value}",
    "window.vram": "peak VRAM {peak} GiB",
    "window.vram_of": "peak VRAM {peak} of {total} GiB",
    "window.ram": "peak RAM {peak} GiB",
    "window.ram_of": "peak RAM {peak} of {total} GiB",
    "window.power": "mean power {value}",
    # tutor.ui.widgets.telemetry_panel
    "tel.clocks": "temp {temp} · SM {sm}/{sm_max} MHz · mem {mem}/{mem_max} MHz",
    # tutor.telemetry
    "text.verbatim": "{text}",
    "tel.status.host_ok": "CPU and RAM of this machine (psutil)",
    "tel.status.host_fallback": "No NVIDIA GPU ({reason}) — showing CPU and RAM",
    "tel.status.with_host": "{status}; host CPU and RAM",
    "tel.status.nvml_ok.one": "NVIDIA NVML — {n} GPU, driver {driver}",
    "tel.status.nvml_ok.other": "NVIDIA NVML — {n} GPUs, driver {driver}",
    "tel.status.gpu_lost": "{names} lost (NVML: GPU is lost) — it needs a reset or a reboot",
    "tel.status.replay": "Replay of {file} ({recorded}) — recorded figures, not this machine's",
    "tel.status.unknown_backend": "unknown backend",
    "tel.status.timeout": "the telemetry driver did not answer within {seconds} s",
    "tel.status.failed": "telemetry failed: {error}",
    "tel.status.not_probed": "not probed",
    "tel.spec.unknown": "unknown telemetry backend '{spec}': expected auto, nvml, host or replay:FILE",
    "tel.spec.replay_needs_file": "replay needs a trace file: replay:FILE",
    "trace.number": "expected a number or null, got {got}",
    "trace.numbers": "expected a list of numbers, got {got}",
    "trace.words": "expected a list of words, got {got}",
    "trace.processes": "expected a list of [pid, name, bytes], got {got}",
    "trace.process": "expected [pid, name, bytes], got {got}",
    "trace.value": "unexpected metric value {got}",
    "trace.not_found": "replay trace not found",
    "trace.too_many_lines": "more than {limit} lines (the limit of a trace)",
    "trace.not_object": "expected a JSON object",
    "trace.device_object": "each device must be an object",
    "trace.header_not_first": "a header may only be the first line",
    "trace.version": "unsupported trace version {version}",
    "trace.t": "expected seconds since the epoch (before 2100), got {got}",
    "trace.device": "expected a device id, got {got}",
    "trace.metrics_object": "must be an object",
    "trace.missing": "missing field {field}",
    "trace.no_samples": "the trace has no samples",
    "trace.bad_header": "bad header: {what}",
    "tel.status.off": "Telemetry is off: {error}",
    "tel.status.nvml_failed": "NVML failed to start ({error})",
    "tel.note.recorded": "Recorded on {recorded}: {message}",
    "tel.reason.library_not_found": "NVML library not found",
    "tel.reason.driver_not_loaded": "NVIDIA driver not loaded",
    "tel.reason.driver_library_mismatch": "NVIDIA driver/library version mismatch",
    "tel.reason.no_permission": "no permission to use the NVIDIA driver",
    "tel.reason.os_blocked": "the operating system blocked NVML",
    "tel.reason.not_installed": "nvidia-ml-py not installed",
    "tel.reason.no_devices": "NVML found no usable GPU",
    "tel.note.library_not_found": (
        "libnvidia-ml.so.1 is not on this system: no NVIDIA driver is installed, or this container was started without "
        "GPU access (docker run --gpus all)."
    ),
    "tel.note.driver_not_loaded": (
        "The driver's library is installed but its kernel module is not running: reboot, or check `lsmod | grep "
        "nvidia` and `dmesg` (Secure Boot can block an unsigned module)."
    ),
    "tel.note.driver_library_mismatch": (
        "The user-space library and the kernel module are different versions, usually after a driver update without a "
        "reboot: reboot."
    ),
    "tel.note.no_permission": (
        "This user cannot open /dev/nvidia*: check the device files' group (often 'video' or 'render'), or pass the "
        "GPU into the container."
    ),
    "tel.note.os_blocked": "The OS refused the request (a sandbox or a security policy).",
    "tel.note.not_installed": "pip install nvidia-ml-py to read NVIDIA GPUs.",
    "tel.note.no_devices": "The driver is loaded but lists no GPU this user can use.",
    "tel.note.wsl": (
        "WSL2: NVML comes from the Windows driver through /usr/lib/wsl/lib. Per-process GPU memory is not reported, "
        "and clock-event reasons, PCIe throughput and some clocks may be N/A; nvidia-smi on Windows shows them."
    ),
    "tel.note.mig": (
        "MIG is enabled on {name}: NVML reports no whole-GPU utilization in this mode; memory and power are for the "
        "whole card."
    ),
    "tel.throttle.idle": "idle",
    "tel.throttle.application_clocks_setting": "application clocks setting",
    "tel.throttle.software_power_cap": "software power cap",
    "tel.throttle.hardware_slowdown": "hardware slowdown",
    "tel.throttle.sync_boost": "sync boost",
    "tel.throttle.software_thermal_slowdown": "software thermal slowdown",
    "tel.throttle.hardware_thermal_slowdown": "hardware thermal slowdown",
    "tel.throttle.power_brake_external": "power brake (external)",
    "tel.throttle.display_clock_setting": "display clock setting",
    "tel.throttle.other": "other ({bits})",
    # files and course problems (untrusted.py, content/)
    "file.cannot_open": "cannot be opened ({reason})",
    "file.link_loop": "is part of a symlink loop; it was not read",
    "file.link_outside": "is a link that leads out of the course folder; it was not read",
    "file.missing": "no such file",
    "file.is_folder": "is a folder, not a file",
    "file.not_regular_kind": "is {kind}, not a regular file; it was not read",
    "file.not_written_kind": "is {kind}, not a regular file; nothing was written to it",
    "file.kind.fifo": "a FIFO",
    "file.kind.device": "a device",
    "file.kind.socket": "a socket",
    "file.kind.other": "something else",
    "file.over_limit": "is {size} bytes, more than the limit of {limit}",
    "file.not_regular": "is not a regular file; it was not read",
    "file.cannot_read": "cannot be read ({reason})",
    "file.larger_than": "is larger than the limit of {limit} bytes",
    "file.not_utf8": "is not UTF-8 text (byte {byte})",
    "json.too_deep": "JSON nested deeper than {depth} levels",
    "json.invalid_at": "invalid JSON ({reason})",
    "json.not_finite": "{token} is not a finite number",
    "json.invalid": "invalid JSON ({reason})",
    "json.reason.value": "a value was expected here",
    "json.reason.key": "a key in double quotes was expected here",
    "json.reason.colon": "':' was expected here",
    "json.reason.comma": "',' was expected here",
    "json.reason.extra": "more text after the JSON value",
    "json.reason.unterminated": "a string that is never closed",
    "json.reason.control": "a control character inside a string",
    "json.reason.escape": "an escape (\\…) that is not valid inside a string",
    "json.lone_surrogate": "{escape} is half of a UTF-16 pair, not a character",
    "json.at": "{where}: {what}",
    "json.too_many_items": "more than {limit} items (the limit)",
    "json.string_too_long": "text longer than {limit} characters (the limit)",
    "problem.at": "{where}: {what}",
    "problem.line": "{path}:{line}:{col}: {severity}: {what}",
    "problem.severity.error": "error",
    "problem.severity.warning": "warning",
    "problem.required": "required field is missing",
    "problem.unknown_field": "unknown field (not part of the format; check the spelling)",
    "problem.top_mapping": "expected a mapping of fields at the top of the file",
    "problem.format_version": "format_version: this tutor reads format 1, the file says {found}",
    "problem.missing_translation": "missing the {language} text",
    "problem.control_char": "control character {name}; course text must be plain",
    "problem.file_too_large": "file is larger than {kb} kB ({detail})",
    "problem.binary": "binary file (contains NUL bytes), expected YAML text",
    "problem.not_utf8": "not UTF-8 text (binary file?)",
    "problem.empty": "empty file",
    "problem.empty_comments": "empty file (only comments)",
    "problem.yaml_too_deep": "YAML nesting is too deep",
    "problem.yaml_tag": "YAML: tag {tag} is not allowed: course files are data, not code",
    "problem.yaml_tag_not_data": (
        "YAML: tag {tag} is not allowed: course files are data, not code (text, numbers, true/false, null, lists "
        "and mappings)"
    ),
    "problem.yaml_not_allowed": "YAML: {what} is not allowed in YAML text",
    "problem.yaml": "YAML: {what}",
    "problem.yaml_alias": "YAML: anchors and aliases (*name) are not allowed in course files",
    "problem.yaml_too_many_values": "YAML: more than {limit} values in one file",
    "problem.yaml_nested_over": "YAML: nesting deeper than {limit} levels",
    "problem.name_control": "the name holds a control character; it was not read",
    "problem.folder_unreadable": "folder cannot be read ({reason})",
    "problem.too_many_entries": "more than {limit} entries in the course folders; the rest were not read",
    "problem.too_deep_folders": "folders nested more than {limit} levels deep; not read",
    "problem.too_many_files": "more than {limit} course files; this one and the rest were not read",
    "problem.not_found": "no such file or folder",
    "problem.course_not_found": "course folder not found",
    "problem.pydantic.string_type": "expected text",
    "problem.pydantic.int_type": "expected a whole number",
    "problem.pydantic.float_type": "expected a number",
    "problem.pydantic.bool_type": "expected true or false",
    "problem.pydantic.list_type": "expected a list",
    "problem.pydantic.dict_type": "expected a mapping",
    "problem.pydantic.literal_error": "expected {expected}",
    "problem.pydantic.too_short": "too short: at least {min} expected",
    "problem.pydantic.too_long": "more than {max} items (the limit)",
    "problem.pydantic.greater_than": "must be greater than {limit}",
    "problem.pydantic.greater_than_equal": "must be at least {limit}",
    "problem.pydantic.less_than": "must be less than {limit}",
    "problem.pydantic.less_than_equal": "must be at most {limit}",
    "problem.pydantic.identifier": "not a valid id: 1 to 64 of a-z, 0-9 and '-', starting with a letter or a digit",
    "problem.pydantic.choice_id": (
        "not a valid choice id: 1 to 64 of a-z, 0-9, '-' and '_', starting with a letter or a digit"
    ),
    "problem.pydantic.registry_name": (
        "not a valid registry name: 1 to 64 of a-z, 0-9 and '_', starting with a letter or a digit"
    ),
    "problem.pydantic.string_pattern_mismatch": "does not match the pattern {pattern}",
    "problem.pydantic.string_too_long": "too long: at most {max} characters",
    "problem.pydantic.string_too_short": "too short: at least {min} characters",
    "problem.pydantic.int_parsing": "expected a whole number",
    "problem.pydantic.int_from_float": "expected a whole number, not a fraction",
    "problem.pydantic.float_parsing": "expected a number",
    "problem.pydantic.bool_parsing": "expected true or false",
    "problem.pydantic.finite_number": "expected a finite number",
    "problem.pydantic.tuple_type": "expected a list",
    "problem.pydantic.model_type": "expected a mapping",
    "problem.pydantic.model_attributes_type": "expected a mapping",
    "problem.pydantic.other": "value not accepted ({kind})",
    "problem.key_not_text": "the key {name} is not text (quote it if it is meant as a name)",
    "problem.second_course_file": "a second course.yaml",
    "problem.lesson_id_taken": "lesson id {id} is already defined in {path}",
    "problem.exercise_id_taken": "exercise id {id} is already defined in {path}",
    "problem.lesson_id_bundled": ("lesson id {id} belongs to the bundled course; a pack cannot redefine it (its "
                                  "progress would count as the bundled lesson): give it an id of its own"),
    "problem.exercise_id_bundled": ("exercise id {id} belongs to the bundled course; a pack cannot redefine it (its "
                                    "attempts would count as the bundled exercise, for C0 too): give it an id of "
                                    "its own"),
    "problem.exercise_undefined": "exercise {id} is not defined by any file",
    "problem.exercise_elsewhere": "exercise {id} belongs to lesson {lesson}",
    "problem.no_such_lesson": "no lesson with id {id}",
    "problem.exercise_unlisted": "exercise {id} is not listed in lesson {lesson}",
    "problem.needs_measure": "{path} needs a measurement, and the exercise has no 'measure'",
    "problem.measured_empty": "'measured:' needs a figure after it, e.g. measured:achieved_gbs",
    "problem.side_asserted": (
        "asserts the side of the learner's machine before measuring it ({sentence}); the truth is measured, so put "
        "this in an explanation_when variant"
    ),
    "problem.hint_side_asserted": "a hint asserts the measured side in advance ({sentence})",
    "rule.text_language": "needs text in at least one language (es or en)",
    "rule.op_needs_name": "op {op} needs a name (which {kind} to run)",
    "rule.dram_needs_workload": "'dram' sizes a workload's arrays; it needs op: workload",
    "rule.id_twice": "id {id} appears twice",
    "rule.exercise_twice": "exercise {id} listed twice",
    "rule.formula_needed": "a formula truth needs 'formula' (the name of a formula the lesson teaches)",
    "rule.tolerances": "tolerances must grow: full ≤ most ≤ some",
    "rule.condition_needs": "a condition needs 'bound' or 'metric'",
    "rule.metric_needs_limit": "a 'metric' condition needs 'above' and/or 'below'",
    "rule.limit_needs_metric": "'above'/'below' need a 'metric' to compare",
    "rule.above_below": "'above' must be less than 'below'",
    "rule.choices_unique": "choice ids must be unique",
    "rule.diagnose_two": "a diagnose exercise needs at least two choices",
    "rule.diagnose_answer": "a diagnose exercise needs 'answer' (one of its choice ids)",
    "rule.answer_not_choice": "answer {answer} is not one of the choices {ids}",
    "rule.number_unit": "a number exercise needs 'unit'",
    "rule.number_truth": "a number exercise needs 'truth' (measurement or formula)",
    "rule.bound_measure": "a bound exercise needs 'measure' (the workload whose side of the roofline is asked)",
    "rule.fit_capacity": "a fit exercise needs 'capacity_gb'",
    "rule.fit_truth": "a fit exercise needs 'truth' (how many GB it takes)",
    "rule.measured_truth": "a measured truth needs 'measure' (what to run)",
    "rule.range_order": "range must be [low, high] with low < high",
    "rule.bound_variant": "a 'when: {bound: …}' variant needs a bound exercise whose side is measured",
    "problem.control_in_text": "control character {name} in the text; course text must be plain (no escape sequences)",
    "problem.control_in_key": "control character {name} in a key; course text must be plain (no escape sequences)",
    "problem.int_range": "{value} is out of range (integers must fit in 64 bits)",
    "problem.not_finite": "{value} is not a finite number",
    "problem.character": "character {name}",
    "problem.a_character": "a character",
    "problem.course_too_big": "the course holds more than {mib} MiB of text; this file was not read",
    "problem.internal": "internal error while loading: {reason}",
    "problem.given_away": (
        "the answer ({answer}) appears in the theory of lesson {lesson}, read just before this exercise: move "
        "the worked example after the exercise or use other numbers"
    ),
    "lessons.summary": "{lessons}, {exercises}, {verdict}",
    "lessons.no_problems": "no problems",
    "count.problem.one": "{n} problem",
    "count.problem.other": "{n} problems",
    "count.lesson.one": "{n} lesson",
    "count.lesson.other": "{n} lessons",
    "count.exercise.one": "{n} exercise",
    "count.exercise.other": "{n} exercises",
    "lessons.list_counts": "{sections}, {labs}, {exercises}",
    "count.section.one": "{n} section",
    "count.section.other": "{n} sections",
    "count.lab.one": "{n} lab",
    "count.lab.other": "{n} labs",
    # C0 checklist (progress/c0.py)
    "c0.joined": "{first}; {second}",
    "c0.stack.title": "The stack is reproducible (a lock with what rebuilds it, checked by a later tutor doctor)",
    "c0.stack.no_lock": "no lock written yet — run `tutor doctor --lock`",
    "c0.stack.no_rebuild": (
        "the lock of doctor run #{run} ({at}) records nothing that rebuilds it — run `tutor doctor --lock` "
        "again"
    ),
    "c0.stack.head": "lock #{run} written {age} ago ({at}), pins {pins}, rebuilds from {requirements} or {dockerfile}",
    "c0.stack.unchecked": "{head}; no later `tutor doctor` has checked the environment against it yet",
    "c0.stack.matches": "doctor #{run} ({at}, a later process) checked the environment: it matches",
    "c0.stack.differs": "doctor #{run} ({at}): the environment no longer matches the lock{differences}",
    "c0.stack.problems": "doctor #{run} ({at}) matched the lock but found problems",
    "count.difference.one": "{n} difference",
    "count.difference.other": "{n} differences",
    "c0.bench.title": (
        "Two tutor bench runs on this device agree (the second reproducible pass; each figure within max(5 %, "
        "2·√(CV₁² + CV₂²)), at most 15 %; {cv})"
    ),
    "c0.bench.none": "no tutor bench run yet",
    "c0.bench.one": "one bench run (#{run}, {at}) on this fingerprint; run `tutor bench` once more",
    "c0.bench.nothing_to_compare": "bench runs #{a} and #{b} have no headline figures to compare",
    "c0.bench.disturbed": (
        "{pair} Not counted: other programs took part of the machine during run #{runs}, so its figures may be low; "
        "run tutor bench again on a quiet machine"
    ),
    "c0.bench.pair": (
        "bench runs #{a} ({at_a}) and #{b} ({at_b}) {verdict}: the figure furthest from its allowance is "
        "{figure}, {difference} apart (allowed ±{allowed})"
    ),
    "c0.bench.pair_shift": "{pair}. {shift}",
    "c0.bench.agree": "agree",
    "c0.bench.disagree": "disagree",
    "c0.bench.still_holds": "{holding}; this still holds — the later pair is noisier: {later}",
    "c0.pass": "pass {n} #{attempt} {score}",
    "c0.ex.not_attempted": "{ex} {marks}: not attempted",
    "c0.ex.reproduced": "{ex} {marks}: reproduced ({p1}, {p2})",
    "c0.ex.no_pass2": "{ex} {marks}: {p1}; pass 2 not done (no hints, no theory)",
    "c0.ex.pass2_failed": "{ex} {marks}: {p2} not passed",
    "c0.ex.not_reproduced": "{ex} {marks}: {p2} passed but does not reproduce pass 1 (not passed before it)",
    "c0.gap.title": (
        "You explained the gap to the theoretical limit: its parts predicted and measured (L4), and your own "
        "explanation in the L4 Lab Notebook entry"
    ),
    "c0.gap.entry": "notebook entry #{entry} explains the gap in your words ({words} words)",
    "c0.gap.no_entry": (
        "no L4 Lab Notebook entry explains the gap yet (its \"gap\" part, at least {words} words of your own, "
        "written in the Lab Notebook screen, N in the TUI, or with 'tutor notebook write ID --gap TEXT')"
    ),
    "c0.level.title": "Every Nivel 0 exercise passed in the second pass (no hints, no theory), reproducing the first",
    "c0.level.none": "this course has no Nivel 0 exercises",
    "c0.level.count": "{done} of {total} reproduced in pass 2",
    "c0.level.todo": "{count}; still to do: {todo}{more}",
    "c0.level.more": "; and {n} more",
    # bench warnings (measure/bench.py, roofline.py)
    "bench.warn.above_datasheet": "measured bandwidth {measured} GB/s is above the datasheet {datasheet}",
    "bench.warn.above_limit": "measured {dtype} {measured} GFLOP/s is above the physical limit {limit}",
    "bench.warn.disturbed": (
        "other programs used {used} of your {cpus} cores during this run: its figures may be low and its roof is "
        "provisional; run it again on a quiet machine before comparing"
    ),
    "bench.warn.busy": (
        "the machine was busy (load average {load} on {cpus} CPUs): figures may be low and noisy, and two "
        "passes may not agree"
    ),
    "bench.warn.quick_cache": (
        "quick mode: STREAM arrays of {arrays} MiB are less than 4× the {llc} MiB last-level cache, so the "
        "peak bandwidth may be partly the cache's, not DRAM's; `tutor bench --full` sizes the arrays for DRAM"
    ),
}
