"""Message ids the code builds at run time (``f"fail.{code}"``), listed so that Babel's extraction finds them.

Extraction (``make i18n``, :mod:`tutor.i18n.extract`) reads ids from the calls that take one; an id made from a
prefix and a value cannot be read there. Each block below names the place that builds the ids and lists every value
it can take; a new value there needs its line here (the catalog test then finds the id used, and its entry in
``en.po``/``es.po``). Where a family is small and closed, prefer a dict of literal ids at the building site
(``{"memory": N_("grade.bound.memory"), ...}``) to a block here.
"""

from __future__ import annotations

from tutor.i18n import N_, N_plural

# tutor/commands/exercise.py:172: f"exercise.kind.{item['kind']}"
N_("exercise.kind.bound")
N_("exercise.kind.diagnose")
N_("exercise.kind.fit")
N_("exercise.kind.number")

# tutor/commands/notebook.py:142: f'notebook.h.{part}'
N_("notebook.h.gap")
N_("notebook.h.hypothesis")
N_("notebook.h.next_question")
N_("notebook.h.prediction")
N_("notebook.h.procedure")
N_("notebook.h.result")
N_("notebook.h.setup")

# tutor/commands/notebook.py:60: f'cli.help.notebook.write.{part}'
N_("cli.help.notebook.write.gap")
N_("cli.help.notebook.write.hypothesis")
N_("cli.help.notebook.write.next_question")
N_("cli.help.notebook.write.prediction")
N_("cli.help.notebook.write.procedure")

# tutor/commands/progress.py:170: f"progress.state.{h['state']}"
N_("progress.state.cancelled")
N_("progress.state.failed")
N_("progress.state.graded")
N_("progress.state.locked")

# tutor/commands/progress.py:238: f'store.table.{table}'
N_plural("store.table.attempts")
N_plural("store.table.bench_runs")
N_plural("store.table.doctor_runs")
N_plural("store.table.lab_runs")
N_plural("store.table.notebook_entries")
N_plural("store.table.sections_read")

# tutor/commands/progress.py:285: f'progress.cli.imported_{mode}'
N_("progress.cli.imported_merge")
N_("progress.cli.imported_refuse")
N_("progress.cli.imported_replace")

# tutor/content/loader.py:173: f'problem.pydantic.{kind}'
N_("problem.pydantic.bool_parsing")
N_("problem.pydantic.bool_type")
N_("problem.pydantic.choice_id")
N_("problem.pydantic.dict_type")
N_("problem.pydantic.finite_number")
N_("problem.pydantic.float_parsing")
N_("problem.pydantic.float_type")
N_("problem.pydantic.greater_than")
N_("problem.pydantic.greater_than_equal")
N_("problem.pydantic.identifier")
N_("problem.pydantic.int_from_float")
N_("problem.pydantic.int_parsing")
N_("problem.pydantic.int_type")
N_("problem.pydantic.less_than")
N_("problem.pydantic.less_than_equal")
N_("problem.pydantic.list_type")
N_("problem.pydantic.literal_error")
N_("problem.pydantic.model_attributes_type")
N_("problem.pydantic.model_type")
N_("problem.pydantic.registry_name")
N_("problem.pydantic.string_pattern_mismatch")
N_("problem.pydantic.string_too_long")
N_("problem.pydantic.string_too_short")
N_("problem.pydantic.string_type")
N_("problem.pydantic.too_long")
N_("problem.pydantic.too_short")
N_("problem.pydantic.tuple_type")

# tutor/content/loader.py:531: f'problem.{kind}_id_bundled'
N_("problem.exercise_id_bundled")
N_("problem.exercise_id_taken")
N_("problem.lesson_id_bundled")
N_("problem.lesson_id_taken")

# tutor/content/problems.py:39: f'problem.severity.{self.severity}'
N_("problem.severity.error")
N_("problem.severity.warning")

# tutor/doctor/checks.py:106: f"doctor.torch.devices.{one|other}" (a Message code, rendered through the plural entry)
N_plural("doctor.torch.devices")

# tutor/doctor/report.py:133: f'doctor.status.{s}'
N_("doctor.status.fail")
N_("doctor.status.ok")
N_("doctor.status.skip")
N_("doctor.status.warn")

# tutor/grading/kinds.py:147: f'grade.bound.why.{r}'
N_("grade.bound.why.disturbed")
N_("grade.bound.why.near_ridge")
N_("grade.bound.why.rates_disagree")
N_("grade.bound.why.roof_provisional")

# tutor/grading/kinds.py:165: f'grade.fit.{real}'
N_("grade.fit.does_not_fit")
N_("grade.fit.fits")

# tutor/grading/truth.py:64: f'formula.{formula}.name'
N_("formula.activation_bytes.name")
N_("formula.adam_training_bytes.name")
N_("formula.arithmetic_intensity.name")
N_("formula.attention_flops.name")
N_("formula.bandwidth_ratio.name")
N_("formula.cpu_peak_flops.name")
N_("formula.cuda_context_bytes.name")
N_("formula.decode_bound_tokens_per_s.name")
N_("formula.flops_ratio.name")
N_("formula.fraction_of_peak.name")
N_("formula.gemm_bytes.name")
N_("formula.gemm_flops.name")
N_("formula.gemm_intensity.name")
N_("formula.inference_bytes.name")
N_("formula.kv_cache_bytes.name")
N_("formula.mfu.name")
N_("formula.ridge_point.name")
N_("formula.roofline_attainable.name")
N_("formula.speedup_over_bandwidth_bound.name")
N_("formula.time_at_bandwidth_s.name")
N_("formula.time_at_rate_s.name")
N_("formula.transformer_forward_flops_per_token.name")
N_("formula.transformer_training_flops_per_token.name")
N_("formula.weights_bytes.name")

# tutor/measure/bench_report.py:163: f'bench.fig.{row.key}'
N_("bench.fig.decode_bound_tokens_per_s")
N_("bench.fig.decode_tokens_per_s")
N_("bench.fig.mfu")
N_("bench.fig.peak_bandwidth_gbs")
N_("bench.fig.ridge_flops_per_byte")
N_("bench.fig.train_tokens_per_s")

# tutor/measure/bench_report.py:224: f"bench.{('table' if table else 'md')}.{('agrees' if fig.agree else 'differs')}"
N_("bench.md.agrees")
N_("bench.md.differs")
N_("bench.table.agrees")
N_("bench.table.differs")

# tutor/measure/bench_report.py:394: f'bench.round.{name}'
N_("bench.round.bandwidth")
N_("bench.round.training")

# tutor/measure/decode_sizing.py:185: 'decode_roof.'
N_("decode_roof.cache")
N_("decode_roof.dram")
N_("decode_roof.gpu")
N_("decode_roof.partial")

# tutor/measure/decode_sizing.py:185: 'decode_roof.gap.'
N_("decode_roof.gap.cache")
N_("decode_roof.gap.dram")
N_("decode_roof.gap.gpu")
N_("decode_roof.gap.partial")

# tutor/practice/failures.py:107: f'fail.{code}'
N_("fail.cancelled")
N_("fail.closing")
N_("fail.doctor")
N_("fail.engine")
N_("fail.failed")
N_("fail.interrupted")
N_("fail.killed")

# tutor/practice/reveal.py:24: f'verdict.{verdict}'
N_("verdict.correct")
N_("verdict.inconclusive")
N_("verdict.partly")
N_("verdict.wrong")

# tutor/practice/roof_stamp.py:32: f'roof.age.{unit}'
N_("roof.age.h")
N_("roof.age.min")
N_("roof.age.s")

# tutor/practice/runner.py:183: f'side.{code}'
N_("side.compute")
N_("side.memory")

# tutor/practice/sizing.py:114: f'setup.decode.{sizing.level}'
N_("setup.decode.cache")
N_("setup.decode.dram")
N_("setup.decode.partial")

# tutor/progress/class_report.py:168: f"creport.wrong_{wrong['direction']}"
N_("creport.wrong_high")
N_("creport.wrong_low")

# tutor/progress/lease.py:58: f'lease.waiting_{where}'
N_("lease.waiting_cli")
N_("lease.waiting_tui")

# tutor/progress/notebook.py:143: f'notebook.setup.{key}'
N_("notebook.setup.capability")
N_("notebook.setup.cpu_model")
N_("notebook.setup.cuda")
N_("notebook.setup.driver")
N_("notebook.setup.logical_cpus")
N_("notebook.setup.max_ghz")
N_("notebook.setup.max_mem_clock_mhz")
N_("notebook.setup.max_sm_clock_mhz")
N_("notebook.setup.physical_cores")
N_("notebook.setup.power_limit_w")
N_("notebook.setup.sms")
N_("notebook.setup.torch_threads")
N_("notebook.setup.total_memory_bytes")

# tutor/progress/notebook.py:37: f'notebook.s.{key}'
N_("notebook.s.cached")
N_("notebook.s.caches")
N_("notebook.s.gemm_best")
N_("notebook.s.gemm_share")
N_("notebook.s.naive_ratio")
N_("notebook.s.no_points")
N_("notebook.s.peak_bw")
N_("notebook.s.peak_mm")
N_("notebook.s.ridge")
N_("notebook.s.ws_peak")

# tutor/progress/notebook.py:399: f"notebook.vram.source.{fig['context_kind']}"
N_("notebook.vram.source.estimate")
N_("notebook.vram.source.measured")

# tutor/progress/notebook.py:401: f'notebook.vram.{label_key}'
N_("notebook.vram.context")
N_("notebook.vram.extrapolated")
N_("notebook.vram.mode.inference")
N_("notebook.vram.mode.training")
N_("notebook.vram.part.activations")
N_("notebook.vram.part.kv_cache")
N_("notebook.vram.part.prefill_working")
N_("notebook.vram.part.total")
N_("notebook.vram.part.weights")
N_("notebook.vram.part.weights_grads_adam")
N_("notebook.vram.peak_allocated")
N_("notebook.vram.peak_reserved")
N_("notebook.vram.total")

# tutor/progress/notebook.py:42: f'notebook.w.{key}'
N_("notebook.w.datasheet")
N_("notebook.w.date")
N_("notebook.w.device")
N_("notebook.w.empty")
N_("notebook.w.exported")
N_("notebook.w.fingerprint")
N_("notebook.w.lab")
N_("notebook.w.lesson")
N_("notebook.w.locked")
N_("notebook.w.measured_on")
N_("notebook.w.no")
N_("notebook.w.no_device")
N_("notebook.w.no_entries")
N_("notebook.w.notebook")
N_("notebook.w.notes")
N_("notebook.w.run")
N_("notebook.w.run_what")
N_("notebook.w.telemetry")
N_("notebook.w.yes")

# tutor/progress/notebook.py:424: f'notebook.bound.{cls.bound}'
N_("notebook.bound.compute")
N_("notebook.bound.memory")

# tutor/progress/notebook.py:425: f'notebook.fig.{k}'
N_("notebook.fig.achieved_gbs")
N_("notebook.fig.achieved_gflops")
N_("notebook.fig.bound")
N_("notebook.fig.cv")
N_("notebook.fig.intensity")
N_("notebook.fig.median_time")
N_("notebook.fig.workload")

# tutor/progress/notebook.py:46: f'notebook.cols.{key}'
N_("notebook.cols.gemm_share")
N_("notebook.cols.gemm_sizes")
N_("notebook.cols.naive_vs_numpy")
N_("notebook.cols.roofline_points")
N_("notebook.cols.working_set")

# tutor/results/reading.py:29: f'result.what.{what}'
N_("result.what.device")
N_("result.what.flag")
N_("result.what.flag_or_null")
N_("result.what.integer")
N_("result.what.list")
N_("result.what.number")
N_("result.what.numbers")
N_("result.what.object")
N_("result.what.source")
N_("result.what.text")
N_("result.what.texts")

# tutor/telemetry/nvml.py:210: f'tel.note.{name}'
N_("tel.note.driver_library_mismatch")
N_("tel.note.driver_not_loaded")
N_("tel.note.library_not_found")
N_("tel.note.no_devices")
N_("tel.note.no_permission")
N_("tel.note.not_installed")
N_("tel.note.os_blocked")

# tutor/telemetry/nvml.py:210: f'tel.reason.{name}'
N_("tel.reason.driver_library_mismatch")
N_("tel.reason.driver_not_loaded")
N_("tel.reason.no_devices")
N_("tel.reason.no_permission")
N_("tel.reason.not_installed")
N_("tel.reason.os_blocked")

# tutor/telemetry/nvml.py:264: f"tel.status.nvml_ok.{one|other}" (a Message code, rendered through the plural entry)
N_plural("tel.status.nvml_ok")

# tutor/ui/app.py:227: f'work.{kind}'
N_("work.course")
N_("work.doctor")
N_("work.exercise")
N_("work.lab")
N_("work.login")
N_("work.roofline")

# tutor/ui/keys.py:83: f'key.{key_id}'
N_("key.attempts")
N_("key.cancel_back")
N_("key.class_report")
N_("key.export")
N_("key.help")
N_("key.hint")
N_("key.lang_letter")
N_("key.lock")
N_("key.next_pending")
N_("key.next_section")
N_("key.notebook")
N_("key.open")
N_("key.previous_section")
N_("key.progress")
N_("key.remeasure_roof")
N_("key.reset_all")
N_("key.reset_exercise")
N_("key.reset_lesson")
N_("key.run")
N_("key.save")
N_("key.second_pass")
N_("key.telemetry")
N_("key.telemetry_enlarge")
N_("key.view_code")
N_("key.write_lock")

# tutor/ui/screens/doctor.py:175: passed as a plain string to a widget's rendering
N_("doctor.failed")
N_("doctor.passed")

# tutor/ui/screens/doctor.py:177: passed as a plain string to a widget's rendering
N_plural("count.failure")
N_plural("count.ok")
N_plural("count.skip")
N_plural("count.warning")

# tutor/ui/screens/lab.py:223: f'plot.axis.{name}.{axis}'
N_("plot.axis.gemm_share.x")
N_("plot.axis.gemm_share.y")
N_("plot.axis.gemm_sizes.x")
N_("plot.axis.gemm_sizes.y")
N_("plot.axis.naive_vs_numpy.x")
N_("plot.axis.naive_vs_numpy.y")
N_("plot.axis.roofline_points.x")
N_("plot.axis.roofline_points.y")
N_("plot.axis.working_set.x")
N_("plot.axis.working_set.y")

# tutor/ui/screens/lab.py:595: passed as a plain string to a widget's rendering
N_("lab.series.extrapolated")
N_("lab.series.measured_of")

# tutor/ui/screens/notebook.py:188: f'notebook.prompt.{name}'
N_("notebook.prompt.hypothesis")
N_("notebook.prompt.next_question")

# tutor/ui/widgets/roofline_chart.py:150: f'chart.roof.{name}'
N_("chart.roof.datasheet")
N_("chart.roof.measured")

# tutor/ui/widgets/telemetry_panel.py:592: passed as a plain string to a widget's rendering
N_("tel.stale")

# tutor/ui/widgets/telemetry_panel.py:593: passed as a plain string to a widget's rendering
N_("tel.stale_host")
N_("tel.stale_replay")

# tutor/ui/widgets/telemetry_panel.py:91: 'tel.throttle.'
N_("tel.throttle.application_clocks_setting")
N_("tel.throttle.display_clock_setting")
N_("tel.throttle.hardware_slowdown")
N_("tel.throttle.hardware_thermal_slowdown")
N_("tel.throttle.idle")
N_("tel.throttle.power_brake_external")
N_("tel.throttle.software_power_cap")
N_("tel.throttle.software_thermal_slowdown")
N_("tel.throttle.sync_boost")

# Not found in tutor/ by a search for the id or a prefix of it: possibly unused, kept so that no screen
# loses a string; remove an id here once no code or stored message can ask for it.
N_plural("count.attempt")
N_("doctor.title")
N_("ex.confidence_short")
N_("lab.doctor.running")
N_("lab.extrapolated")
N_("lab.measured")
N_("lease.cancelled")
N_("map.load_failed")
N_("palette.exercise")
N_("palette.lab")
N_("palette.lesson")
N_("plot.cannot_draw")
N_("problem.line")
N_("progress.title")
N_("window.ram_of")
N_("window.vram_of")

# tutor/ui/screens/login.py: the code shown when the login worker gives up (a tuple's literal)
N_("login.too_many")

# In the tables at the switch to gettext (issue 29) and found by no extraction then: ids other work in progress had
# added before its code used them, or ids built where this list does not yet say. Move each to its building site's
# block above (or delete it, with its catalog entries, once nothing can ask for it).
N_("attempts.truth")
N_("attempts.truth_leaning")
N_("exchange.control")
N_("exchange.not_finite")
N_("exchange.not_list")
N_("exchange.not_row")
N_("exchange.outside")
N_("exchange.too_long")
N_("exchange.unexpected")
N_("exchange.unknown_column")
N_("work.other")
