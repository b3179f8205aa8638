"""Spanish: every UI string, one flat table (key -> text with ``{placeholders}``).

Both catalogs carry the same keys with the same placeholders (tests/test_i18n_catalog.py checks it).
"""

from __future__ import annotations

MESSAGES: dict[str, str] = {
    # shared chrome and counts
    "app.subtitle": "predice, luego mide",
    "app.no_exercise": "El ejercicio {id} no está en este curso",
    "app.no_lab": "El laboratorio {id} no está en este curso",
    "app.no_class": "El informe de la clase necesita el almacén de una clase (tutor --store postgresql://…)",
    "map.title": "Mapa del curso",
    "map.invalid": "Archivos con errores",
    "map.sections": "Teoría",
    "map.labs": "Laboratorios",
    "map.exercises": "Ejercicios",
    "map.empty": "Elige una lección en el mapa.",
    "map.hint": "↑/↓ para moverte, Intro para abrir, l para cambiar de idioma.",
    "lesson.no_exercises": "Esta lección no tiene ejercicios.",
    "map.second_pass_hint": "Elige un ejercicio y pulsa 2 para el segundo pase (sin pistas ni teoría).",
    "lesson.outcome": "Resultado",
    "invalid.title": "Este archivo no se pudo cargar",
    "invalid.body": "El resto del curso funciona. Corrige estos problemas y vuelve a abrir el tutor:",
    "lang.switched": "Idioma: español",
    "side.memory": "memoria",
    "roof.cache_resident": (
        "Nota del tutor: alcanzó el {fraction} del techo de memoria, más que la DRAM, porque su conjunto de trabajo "
        "({ws}) "
        "cabe en tu caché de último nivel ({llc}, {source}): el techo se midió en DRAM y este kernel no salió "
        "de la caché."
    ),
    "roof.remeasured": (
        "Nota del tutor: quedó al {fraction} de un techo que no debería superar, así que el techo guardado era dudoso "
        "(medido con la máquina ocupada, o la máquina cambió). El tutor volvió a medir tu roofline y juzgó este "
        "resultado contra el nuevo."
    ),
    "roof.still_above": (
        "Aun con el techo medido de nuevo queda al {fraction}: es el ruido de una máquina compartida o un reloj que "
        "subió por encima del nominal; tómalo como una cota, no como un récord."
    ),
    "side.compute": "cómputo",
    "progress.stored_at": "Tu progreso se guarda en: {where}",
    "count.step.one": "{n} paso",
    "count.step.other": "{n} pasos",
    "count.read_pass.one": "{n} lectura",
    "count.read_pass.other": "{n} lecturas",
    "count.attempt.one": "{n} intento",
    "count.attempt.other": "{n} intentos",
    "count.warning.one": "{n} aviso",
    "count.warning.other": "{n} avisos",
    "count.failure.one": "{n} fallo",
    "count.failure.other": "{n} fallos",
    "count.ok.one": "{n} bien",
    "count.ok.other": "{n} bien",
    "count.skip.one": "{n} no aplica",
    "count.skip.other": "{n} no aplican",
    "count.sample.one": "{n} muestra",
    "count.sample.other": "{n} muestras",
    "count.prediction.one": "{n} predicción",
    "count.prediction.other": "{n} predicciones",
    "count.row.one": "{n} fila de {table}",
    "count.row.other": "{n} filas de {table}",
    # tutor.commands.classroom
    "class.init_done": (
        "Clase lista en {server} (esquema {schema}). Tú ({owner}) eres quien la imparte: lees las filas de todos. "
        "Seguridad por filas activa en {count} tablas: cada alumno ve y escribe sólo las suyas.\nSiguiente paso: tutor "
        "class add-learner NOMBRE"
    ),
    "class.learner_added": (
        "Alumno {name} creado. Dale estos datos; no se vuelven a mostrar (el servidor sólo guarda un hash):\n  nombre: "
        "{name}\n  token:  {token}\n  conexión: {dsn}\n  línea de .pgpass: {pgpass}\nEn su terminal: añade la línea "
        "a ~/.pgpass (chmod 600), o guarda el token solo en un archivo que sólo él pueda leer, y luego: tutor --store "
        "'{dsn}' (--token-file ARCHIVO); en un terminal el tutor lo pide si no. Nunca en --store: todos los usuarios "
        "de la máquina ven la línea de órdenes (ps).\nEn el navegador (tutor serve): nombre y token."
    ),
    "labcli.unknown": "no hay ningún laboratorio {lab!r} en este curso (tutor lab list los enumera)",
    "labcli.question": "Pregunta",
    "labcli.prediction": "Tu predicción (fijada)",
    "labcli.failed": "la medida del laboratorio falló: {reason}",
    "labcli.cancelled": "medida cancelada; nada se guardó",
    "labcli.filed": "Entrada {entry} del cuaderno archivada (tutor notebook export --entry {entry}).",
    "labcli.none": "(este curso no tiene laboratorios)",
    # tutor.commands (argument checks)
    "cli.cannot_write": "no se puede escribir {path}: {reason}",
    "cli.at_least": "{option} debe ser al menos {minimum} (llegó {got})",
    "cli.between": "{option} debe estar entre {low} y {high} (llegó {got})",
    "cli.unknown_device": "dispositivo desconocido «{device}» (elige auto, cpu o cuda)",
    "cli.no_course": "no hay ningún curso en {path} (se esperaba {path}/lessons y {path}/exercises)",
    "cli.interrupted": "{prog}: interrumpido",
    "cli.token_in_argv": (
        "{prog}: AVISO: el token de --store está en la línea de órdenes de este proceso, que cualquier usuario de "
        "esta máquina puede leer (ps). Usa --store sin él y --token-file ARCHIVO, ~/.pgpass o la pregunta; pide a tu "
        "profesor un token nuevo."
    ),
    "cli.token_prompt": "Token para {server} (no se muestra): ",
    "cli.class_login": "--class-login necesita ${env} (tutor serve la pone)",
    # tutor's command line: help texts (cli.desc.* a command's description, cli.help.* an option's or command's line)
    "cli.desc.tutor": (
        "GPU Tutor — aprende rendimiento de GPU prediciendo primero y midiendo después en tu propio hardware. Sin "
        "subcomando, abre el curso en la interfaz de terminal."
    ),
    "cli.title.commands": "comandos",
    "cli.title.actions": "acciones",
    "cli.help.tutor.lang": (
        "idioma del curso y de la interfaz (por omisión: el último elegido en el tutor, si no el del locale)"
    ),
    "cli.help.tutor.telemetry": (
        "fuente de telemetría de la interfaz: auto, nvml, host o replay:FILE (por omisión: auto)"
    ),
    "cli.help.tutor.telemetry_interval": (
        "segundos entre muestras de telemetría en la interfaz (por omisión 1,0; mínimo 0,25)"
    ),
    "cli.help.course": "abre otra carpeta de curso (DIR/lessons y DIR/exercises) en lugar del curso incluido",
    "cli.help.data_dir": (
        "dónde se guarda el progreso (por omisión: la carpeta de datos del usuario, o $TUTOR_DATA_DIR)"
    ),
    "cli.help.store": (
        "el almacén de progreso: una URL postgresql://… para una clase (o $TUTOR_STORE); por omisión: el archivo "
        "SQLite de la carpeta de datos"
    ),
    "cli.help.token_file": (
        "lee el token de la clase de FILE (que sólo tú puedas leer: chmod 600) en vez de la línea de órdenes; "
        "también PGPASSFILE/~/.pgpass, PGPASSWORD, o una pregunta oculta en un terminal"
    ),
    "cli.help.lang": (
        "idioma de la salida (por omisión: el último elegido en el tutor, si no el del locale; el JSON sigue en "
        "inglés)"
    ),
    "cli.help.lang.bench": (
        "idioma de las líneas de progreso, la tabla y el informe Markdown (por omisión: el último elegido en el tutor, "
        "si no el del locale; el JSON es el mismo)"
    ),
    "cli.help.lang.serve": (
        "idioma en que se abre el tutor en el navegador (por omisión: el último elegido en el tutor, si no el del "
        "locale)"
    ),
    "cli.help.lessons": "comprueba o enumera las lecciones del curso",
    "cli.help.lessons.check": "valida archivos de lecciones y ejercicios (por omisión: el curso incluido)",
    "cli.desc.lessons.check": (
        "Valida archivos del curso: una línea por problema, como ruta:línea:columna: error: mensaje. Sale con 1 si "
        "hay algún error, con 0 si no."
    ),
    "cli.help.lessons.check.paths": "archivos o carpetas que comprobar",
    "cli.help.lessons.check.allow_one_language": (
        "no exige los textos en es y en a la vez (el curso incluido siempre necesita los dos)"
    ),
    "cli.help.lessons.check.strict": (
        "avisa también cuando la respuesta de un ejercicio (una fórmula sobre datos literales) aparece en la teoría "
        "de su lección"
    ),
    "cli.help.lessons.list": "enumera los niveles y las lecciones del curso",
    "cli.help.exercise": "enumera los ejercicios, o haz uno sin la interfaz (predecir, medir, calificar)",
    "cli.desc.exercise": (
        "Ejercicios de predecir y luego medir sin la interfaz: el mismo flujo y el mismo almacén de progreso."
    ),
    "cli.help.exercise.list": "todos los ejercicios: id, tipo, lección, unidad y opciones",
    "cli.help.exercise.list.json": "un documento JSON (una lista de ejercicios)",
    "cli.help.exercise.run": "predice, fija la predicción, mide en esta máquina, califica y guarda un intento",
    "cli.desc.exercise.run": (
        "Hace un ejercicio. --predict toma el id de una opción en los de cota (memory|compute), de cabe (fits|"
        "does_not_fit, con los GB si quieres: 'does_not_fit:40' o --gb 40) y de diagnóstico (mira 'tutor exercise "
        "list'); un número en la unidad del ejercicio en los numéricos. --resume N mide un intento sin terminar "
        "(fijado y nunca medido: mira 'tutor progress') con la predicción que guardó. La medida corre en el mismo "
        "proceso de trabajo que en la interfaz. Sale con 0 una vez calificado y guardado, sea cual sea el veredicto; "
        "con 2 si la entrada no vale (no se guarda nada); con 1 si la medida falla; con 130 con Ctrl-C (el intento "
        "queda cancelado)."
    ),
    "cli.help.exercise.run.exercise_id": "el id del ejercicio",
    "cli.help.exercise.run.predict": "tu predicción (id de una opción o número); obligatoria salvo con --resume",
    "cli.help.exercise.run.resume": "mide el intento sin terminar #N con la predicción que guardó",
    "cli.help.exercise.run.gb": "ejercicios de cabe: el tamaño que predices, en GB",
    "cli.help.exercise.run.confidence": (
        "tu confianza en % (por omisión 80), del azar a 100: 1/opciones si eliges entre tres o más (14 con "
        "siete), si no 50"
    ),
    "cli.help.exercise.run.pass": "1 (por omisión) o 2: la segunda pasada, sin pistas, debe reproducir la primera",
    "cli.help.exercise.run.device": "dónde medir (por omisión auto: la GPU cuando torch puede usarla)",
    "cli.help.exercise.run.roofline_mode": (
        "con cuánto cuidado medir el roofline si aún no está guardado (por omisión quick)"
    ),
    "cli.help.exercise.run.budget": (
        "segundos de repeticiones cronometradas por carga de trabajo (0,05–10; por omisión 1)"
    ),
    "cli.help.exercise.run.json": "escribe el intento calificado como JSON",
    "cli.help.exercise.discard": "descarta un intento sin terminar (fijado, nunca medido)",
    "cli.desc.exercise.discard": (
        "Marca como cancelado el intento sin terminar #N: su predicción queda en el historial y ya no se ofrece "
        "retomarlo. 'tutor progress' enumera los intentos sin terminar."
    ),
    "cli.help.exercise.discard.attempt_id": "el número del intento",
    "cli.help.lab": (
        "enumera los laboratorios, o haz uno sin la interfaz (predecir, medir, archivar la entrada del cuaderno)"
    ),
    "cli.desc.lab": (
        "Los laboratorios del curso sin la interfaz: el mismo flujo y el mismo almacén de progreso que la pantalla "
        "de laboratorio."
    ),
    "cli.help.lab.list": "todos los laboratorios: id, lección, qué ejecuta, la unidad de su predicción",
    "cli.help.lab.list.json": "un documento JSON (una lista de laboratorios)",
    "cli.help.lab.run": (
        "predice, fija la predicción, mide en esta máquina, guarda la ejecución y archiva su entrada del cuaderno"
    ),
    "cli.desc.lab.run": (
        "Hace un laboratorio. --predict es tu respuesta a la pregunta del laboratorio, fijada antes de ejecutar nada: "
        "un número en la unidad del laboratorio si la tiene (vale la coma decimal), si no una frase. Sale con 0 una "
        "vez guardado, con 2 si la entrada no vale, con 1 si la medida falla, con 130 con Ctrl-C."
    ),
    "cli.help.lab.run.lab_id": "el id del laboratorio ('tutor lab list' los muestra)",
    "cli.help.lab.run.predict": "tu predicción (un número o una frase)",
    "cli.help.lab.run.json": "escribe la ejecución guardada como JSON",
    "cli.help.bench": (
        "mide el ancho de banda, los FLOP/s de matmul y el rendimiento de decode y de entrenamiento; compara con la "
        "ejecución anterior"
    ),
    "cli.desc.bench": (
        "El benchmark de referencia: ancho de banda pico de memoria, FLOP/s pico de matmul por dtype, punto de cresta, "
        "tokens/s de decode de un transformer pequeño incluido frente a su cota de ancho de banda, tokens/s de "
        "entrenamiento y MFU. La ejecución se guarda y se compara con la anterior en la misma huella de dispositivo."
    ),
    "cli.help.bench.quick": (
        "la pasada rápida (menos de 30 s, el vistazo del lab; por omisión, la pasada estándar: los mismos "
        "tamaños, el triple de rondas, menos de 90 s, la que reproduce entre dos ejecuciones)"
    ),
    "cli.help.bench.standard": "la pasada estándar (por omisión; la evidencia de C0)",
    "cli.help.bench.full": "arrays y matrices más grandes, más repeticiones y más dtypes (unos minutos)",
    "cli.help.bench.device": "auto (CUDA si la hay, si no la CPU), cpu o cuda (por omisión: auto)",
    "cli.help.bench.json": (
        "escribe el informe JSON en FILE; sin FILE (o con '-') lo escribe en la salida estándar y la tabla va a la "
        "salida de errores"
    ),
    "cli.help.bench.markdown": "escribe el informe Markdown en FILE",
    "cli.help.bench.tolerance": "tolerancia de acuerdo con la ejecución anterior (por omisión 0,05 = 5 %)",
    "cli.help.bench.no_store": "no guarda esta ejecución en el almacén de progreso (ni la compara)",
    "cli.help.doctor": "diagnostica la pila torch/CUDA/driver y escribe o comprueba el lock del entorno",
    "cli.desc.doctor": (
        "Diagnostica la pila en segundos: la build de torch, la GPU NVIDIA y su driver, kernels para la GPU (sm_120), "
        "WSL2, contenedores, CUDA_VISIBLE_DEVICES, ajustes del asignador, memoria de GPU ocupada por otros procesos. "
        "Código de salida: 0 si ninguna comprobación falla (una máquina sin GPU pasa), 1 si alguna falla o el lock "
        "difiere con --check-lock, 2 si el archivo de lock no se puede usar."
    ),
    "cli.help.doctor.json": "escribe el informe como JSON (esquema gpu-tutor/doctor/v1)",
    "cli.help.doctor.lock": (
        "escribe el lock del entorno (versiones, GPU, driver) en FILE (por omisión: el lock de la carpeta de datos)"
    ),
    "cli.help.doctor.check_lock": (
        "compara este entorno con el lock de FILE y enumera cada diferencia (sale con 1 si hay alguna)"
    ),
    "cli.help.doctor.no_probe": "no lanza el pequeño kernel CUDA que confirma que torch tiene kernels para la GPU",
    "cli.help.telemetry": "muestra la telemetría de GPU/CPU en vivo (o líneas JSON) sin la interfaz",
    "cli.desc.telemetry": (
        "Muestrea la telemetría de esta máquina: las GPU NVIDIA a través de NVML, y CPU/RAM a través de psutil. Sin "
        "GPU NVIDIA se muestran las cifras del host y cada muestra dice por qué no hay GPU."
    ),
    "cli.help.telemetry.json": "un objeto JSON por dispositivo y muestra, uno por línea",
    "cli.help.telemetry.samples": "para tras N muestras (por omisión: hasta Ctrl-C)",
    "cli.help.telemetry.interval": "segundos entre muestras (por omisión 1,0; mínimo {minimum})",
    "cli.help.telemetry.record": "escribe además una traza (líneas JSON) para replay:FILE",
    "cli.help.telemetry.backend": "auto, nvml, host o replay:FILE (por omisión: auto)",
    "cli.help.telemetry.pcie": "lee también PCIe TX/RX (NVML; cada lectura cuesta ~20 ms en el driver)",
    "cli.help.progress": "tu progreso y la lista de C0; expórtalo, impórtalo o reinícialo",
    "cli.desc.progress": (
        "El estado de cada lección, la lista de C0 con la evidencia que la respalda, la calibración y el historial."
    ),
    "cli.help.progress.json": "todo el informe como un documento JSON",
    "cli.help.progress.check_env": "compara además ahora el lock del entorno con el entorno actual (importa torch)",
    "cli.help.progress.export": "escribe todo el progreso en un archivo JSON",
    "cli.help.progress.export.file": "dónde escribir la exportación (un archivo JSON)",
    "cli.help.progress.import": (
        "carga el progreso de una exportación JSON (no sobrescribe salvo con --merge o --replace)"
    ),
    "cli.desc.progress.import": (
        "Valida una exportación y la carga. En un almacén que ya tiene datos: se niega, salvo con --merge (añade las "
        "filas que aún no están) o --replace (descarta el progreso actual)."
    ),
    "cli.help.progress.import.file": "una exportación escrita por 'tutor progress export'",
    "cli.help.progress.import.merge": "añade lo que falta; las filas que ya están se saltan",
    "cli.help.progress.import.replace": "descarta el progreso actual y luego carga el archivo",
    "cli.help.progress.acknowledge": "deja de mostrar el aviso de que un archivo de progreso dañado se apartó",
    "cli.desc.progress.acknowledge": (
        "Marca como vista cada recuperación registrada (un archivo de progreso dañado apartado). Las copias se "
        "conservan."
    ),
    "cli.help.progress.reset": "olvida un ejercicio, una lección o todo (pregunta antes)",
    "cli.help.progress.reset.exercise": "los intentos de un ejercicio",
    "cli.help.progress.reset.lesson": (
        "una lección: sus intentos, las secciones leídas y las ejecuciones de laboratorio"
    ),
    "cli.help.progress.reset.all": "todo lo que hay en el almacén de progreso",
    "cli.help.progress.reset.yes": "no pide confirmación",
    "cli.help.notebook": "el cuaderno de laboratorio: enumera las entradas, expórtalas a Markdown",
    "cli.desc.notebook": (
        "El cuaderno de laboratorio: una entrada por ejecución de laboratorio (hipótesis, montaje, predicción, "
        "resultado, la diferencia)."
    ),
    "cli.help.notebook.list": "una línea por entrada (id, fecha, laboratorio, dispositivo)",
    "cli.help.notebook.export": "escribe todas las entradas (o algunas) en un archivo Markdown",
    "cli.help.notebook.export.file": (
        "dónde escribir ('-' para la salida estándar; por omisión: un archivo nuevo en la carpeta de informes, cuya "
        "ruta se muestra)"
    ),
    "cli.help.notebook.export.entry": "sólo esta entrada (se puede repetir)",
    "cli.help.notebook.export.lab": "sólo las entradas de este laboratorio",
    "cli.help.notebook.write": (
        "escribe tus partes de una entrada (hipótesis, predicción, procedimiento, diferencia, siguiente pregunta)"
    ),
    "cli.desc.notebook.write": (
        "Escribe las partes de una entrada del cuaderno de laboratorio que son tuyas, como la pantalla del cuaderno "
        "(N en la interfaz). El montaje y el resultado son de la medida y no se pueden escribir. TEXT '-' lee la "
        "parte de la entrada estándar (como mucho {limit} caracteres). Los caracteres de control se quitan."
    ),
    "cli.help.notebook.write.entry_id": "la entrada (mira 'tutor notebook list')",
    "cli.help.notebook.write.hypothesis": "tu hipótesis",
    "cli.help.notebook.write.prediction": "tu predicción; se rechaza si su ejecución ya empezó: usa --note",
    "cli.help.notebook.write.procedure": "tu procedimiento",
    "cli.help.notebook.write.gap": "tu diferencia (entre la predicción y el resultado)",
    "cli.help.notebook.write.next_question": "tu siguiente pregunta",
    "cli.help.notebook.write.note": (
        "una idea posterior, añadida como nota nueva con fecha (la predicción queda como estaba)"
    ),
    "cli.help.class": "da una clase sobre un PostgreSQL: init, add-learner, report, leases, break-lease",
    "cli.desc.class": (
        "Prepara el PostgreSQL de una clase (esquema, roles, seguridad por filas), da de alta alumnos con un rol y un "
        "token propios, e informa sobre la clase. Necesita --store postgresql://… (la conexión del profesor) o "
        "TUTOR_STORE."
    ),
    "cli.help.class.init": "crea el esquema, los roles y la seguridad por filas (se puede repetir sin daño)",
    "cli.help.class.allow_superuser": "prepara la clase aunque tu usuario sea superusuario (no recomendado)",
    "cli.help.class.add_learner": "crea el rol de un alumno y muestra su token, una sola vez",
    "cli.help.class.add_learner.name": "el nombre del alumno: minúsculas, dígitos, _",
    "cli.help.class.add_learner.host": (
        "la dirección del servidor tal como la ven los alumnos (por omisión: el host del profesor, o 127.0.0.1 para "
        "un socket local)"
    ),
    "cli.help.class.learners": "lista los roles de alumno: si pueden entrar, sesiones abiertas ahora, derechos de más",
    "cli.help.class.learners.json": "los alumnos como un único documento JSON",
    "cli.help.class.reset_token": "da a un alumno un token nuevo (el anterior deja de servir; sus sesiones terminan)",
    "cli.help.class.remove_learner": "elimina el rol de un alumno (ya no puede entrar; sus filas siguen en el informe)",
    "cli.help.class.leases": (
        "lista las reservas de dispositivo vigentes: sesión, alumno, dispositivo, desde hace cuánto, cuántos esperan"
    ),
    "cli.help.class.leases.json": "las reservas como un único documento JSON",
    "cli.help.class.break_lease": (
        "termina la sesión que tiene una reserva (un proceso detenido o colgado), para liberar el dispositivo"
    ),
    "cli.help.class.break_lease.who": "un número de sesión (de tutor class leases) o un alumno (todas sus reservas)",
    "cli.help.class.break_lease.older_than": (
        "rompe toda reserva que dure al menos SECONDS (según cuenta el propio tutor)"
    ),
    "cli.help.class.report": (
        "la vista del profesor: por ejercicio, calibración, la C0 de cada alumno, el roofline de la clase"
    ),
    "cli.desc.class.report": (
        "Por ejercicio, la proporción de predicciones correctas y la respuesta equivocada más común; la calibración "
        "de la clase; las condiciones de C0 de cada alumno; el roofline medido de cada alumno agrupado por huella de "
        "dispositivo. Lee las filas de todos los alumnos (ejecútalo con la conexión del profesor)."
    ),
    "cli.help.class.report.json": "el informe como un documento JSON",
    "cli.help.class.report.markdown": "el informe como Markdown (el texto por omisión)",
    "cli.help.serve": (
        "sirve el tutor a navegadores web (textual-serve); en una clase los alumnos entran con nombre y token"
    ),
    "cli.desc.serve": (
        "Cada pestaña del navegador tiene su propio proceso de la aplicación. Con el almacén de una clase (--store "
        "postgresql://…) cada pestaña abre en la pantalla de entrada: la base de datos comprueba el nombre y el token "
        "del alumno antes de mostrar nada del curso. Sin almacén de clase sirve el progreso del único alumno de esta "
        "máquina: déjalo entonces en 127.0.0.1. Ponlo detrás de un proxy TLS (--public-url https://…) antes de que "
        "los alumnos lleguen a él por una red."
    ),
    "cli.help.serve.host": "dirección en la que escuchar (por omisión 127.0.0.1)",
    "cli.help.serve.port": "puerto en el que escuchar (por omisión 8000)",
    "cli.help.serve.max_sessions": (
        "sesiones de navegador servidas a la vez, cada una un proceso propio (por omisión {n})"
    ),
    "cli.help.serve.max_failed_logins": (
        "intentos fallidos desde una dirección en 10 minutos que la cierran a nuevos intentos durante 15 minutos "
        "(por defecto {n})"
    ),
    "cli.help.serve.public_url": (
        "la dirección que usan los navegadores, p. ej. https://tutor.example.org detrás de un proxy TLS"
    ),
    # argparse's own words (tutor.commands.parsing)
    "argparse.usage": "uso: ",
    "argparse.positionals": "argumentos posicionales",
    "argparse.options": "opciones",
    "argparse.help": "muestra esta ayuda y termina",
    "argparse.version": "muestra la versión del programa y termina",
    "argparse.error": "{prog}: error: {message}",
    "argparse.argument": "argumento {argument}: {message}",
    "argparse.required": "faltan estos argumentos obligatorios: {names}",
    "argparse.unrecognized": "argumentos no reconocidos: {args}",
    "argparse.one_of_required": "hace falta uno de los argumentos {names}",
    "argparse.not_allowed_with": "no se puede usar junto con el argumento {other}",
    "argparse.invalid_choice": "opción no válida: «{value}» (elige entre {choices})",
    "argparse.expected_one": "se esperaba un argumento",
    "argparse.expected_at_most_one": "se esperaba como mucho un argumento",
    "argparse.expected_at_least_one": "se esperaba al menos un argumento",
    "argparse.expected_n.one": "se esperaba {n} argumento",
    "argparse.expected_n.other": "se esperaban {n} argumentos",
    "argparse.invalid_value": "valor {type} no válido: «{value}»",
    "argparse.type.int": "entero",
    "argparse.type.float": "numérico",
    "argparse.ambiguous": "opción ambigua: {option} puede ser {matches}",
    "argparse.ignored_explicit": "se ignoró el argumento explícito «{value}»",
    "argparse.unknown_parser": "subcomando desconocido «{value}» (opciones: {choices})",
    "telemetrycli.no_nvml": "NVML no está disponible: {reason}",
    # tutor.commands.notebook
    "notebookcli.empty": (
        "El cuaderno de laboratorio está vacío: termina un laboratorio ('tutor lab run ID' o en el tutor) "
        "para archivar su primera entrada."
    ),
    "notebookcli.no_entry": "no hay ninguna entrada del cuaderno con id {entry} (mira 'tutor notebook list')",
    "notebookcli.damaged": (
        "la entrada {entry} del cuaderno está dañada y se conserva tal cual (no se escribió nada): {error}"
    ),
    "notebookcli.no_lab_entry": (
        "no hay ninguna entrada del cuaderno del laboratorio {lab!r} (mira 'tutor notebook "
        "list')"
    ),
    "notebookcli.is_dir": "{path} es una carpeta; da un nombre de archivo",
    "notebookcli.too_long": "{part}: como mucho {limit} caracteres",
    "notebookcli.nothing_to_write": (
        "nada que escribir: da al menos una parte, p. ej. --gap TEXTO (mira 'tutor notebook write "
        "-h')"
    ),
    "notebookcli.written.one": "Entrada {entry} ({lab}): «{part}» escrita, {n} palabra.",
    "notebookcli.written.other": "Entrada {entry} ({lab}): «{part}» escrita, {n} palabras.",
    "notebookcli.prediction_locked": (
        "la predicción de la entrada {entry} quedó fijada al empezar su ejecución (primero se predice); añade "
        "una idea posterior como nota: tutor notebook write {entry} --note TEXTO"
    ),
    "notebookcli.note_added": "Entrada {entry} ({lab}): nota añadida, con fecha {when}.",
    # tutor.commands.serve
    "serve.class": "Sirviendo la clase en http://{host}:{port} (cada alumno entra con su nombre y token). Ctrl-C para.",
    "serve.single": (
        "Sirviendo tu progreso en http://{host}:{port} (sin login: quien llegue a esta dirección lo ve). Ctrl-C para."
    ),
    # tutor.measure.errors
    "measure.time_limit": (
        "La medición superó su tiempo límite ({limit} s, calculado a partir de su tamaño con margen) y se detuvo. La "
        "máquina puede estar muy ocupada; vuelve a intentarlo o elige tamaños más pequeños."
    ),
    # tutor.measure.phases: qué está haciendo el motor de medida (líneas de progreso)
    "measure.progress.measuring": "midiendo…",
    "measure.progress.roofline": "techo de roofline: {step}",
    "measure.progress.roofline_again": "techo de roofline, de nuevo: {step}",
    "measure.progress.roofline_measured": "picos medidos",
    "measure.progress.bandwidth": "ancho de banda: {kernel} sobre arrays de {mib} MiB",
    "measure.progress.matmul_peak": "pico de matmul: {dtype} {shape}",
    "measure.progress.matmul_probe": "matmul: {dtype} {shape} (eligiendo el tamaño)",
    "measure.progress.preparing": "{workload}: preparando entradas",
    "measure.progress.timing": "{workload}: midiendo tiempos",
    "measure.progress.done": "{workload}: hecho",
    "measure.progress.vram_inference": "memoria de {preset} (inferencia)",
    "measure.progress.vram_training": "memoria de {preset} (entrenamiento)",
    "measure.progress.vram_fits": "{preset}: cabe",
    "measure.progress.vram_does_not_fit": "{preset}: no cabe",
    "measure.progress.working_set": "{mib} MiB ({level}): {gbs} GB/s",
    "measure.progress.gemm_size": "N={n}: {gflops} GFLOP/s",
    "measure.progress.python_measured": "python N={n}: {gflops} GFLOP/s (medido)",
    "measure.progress.python_extrapolated": "python N={n}: {gflops} GFLOP/s (extrapolado ∝ N³)",
    "measure.progress.numpy": "numpy N={n}: {gflops} GFLOP/s",
    "measure.progress.point": "{workload}: intensidad {intensity} FLOP/B, {gflops} GFLOP/s",
    "measure.progress.gemm_share": "lote {batch}: {pct} % del paso en GEMM",
    "measure.progress.decode_build": "decode: construyendo el modelo a la medida de esta máquina",
    "measure.progress.decode_threads": "decode: probando con {threads} hilo(s)",
    "measure.progress.decode_weights": (
        "decode: leyendo {mib} MiB de pesos para medir el ancho de banda que los alimenta"
    ),
    "measure.progress.decode_batch": "decode: lote {batch}, {tokens} tokens",
    "measure.progress.decode_again": "decode: por encima de su cota, midiendo otra vez el ancho de banda de los pesos",
    "measure.progress.gap_round": "brecha de decode: ronda {round}/{rounds}, modelo {model}/{models}",
    "measure.progress.gap_fitted": "brecha de decode: recta ajustada",
    "measure.progress.train_build": "paso de entrenamiento: construyendo el modelo, contando FLOP, calentando",
    "measure.progress.train_flops": "paso de entrenamiento: contando FLOP",
    "measure.progress.train_step": "paso de entrenamiento {i}/{steps} (lote {batch} × {seq} tokens)",
    "measure.progress.round": "ronda {round}/{rounds}: {task}",
    "measure.progress.bench_start": "bench en {device} ({kind})",
    "measure.progress.bench_done": "bench terminado",
    "measure.progress.measured": "medido",
    "measure.progress.test_point": "punto {i}",
    "measure.task.bandwidth": "ancho de banda",
    "measure.task.matmul": "matmul {dtype}",
    "measure.task.training": "entrenamiento",
    "measure.task.decode": "decode",
    "measure.task.decode_bound": "cota de decode",
    "measure.task.other": "{name}",
    # tutor.progress.exchange
    "exchange.at_path": "{path}: {problem}",
    "exchange.not_object": "no es una exportación de progreso de GPU Tutor (se esperaba un objeto JSON)",
    "exchange.format": "no es una exportación de progreso de GPU Tutor (formato {found}, se esperaba {expected})",
    "exchange.schema": "la exportación tiene el esquema {found}; este tutor lee hasta el {known}",
    "exchange.no_tables": "la exportación no tiene el objeto 'tables'",
    "exchange.unknown_table": "tabla desconocida {table} en la exportación",
    "exchange.not_list": "{where} debe ser una lista",
    "exchange.not_row": "{where} debe ser un objeto",
    "exchange.unknown_column": "{where}: columna desconocida {column}",
    "exchange.missing_column": "{where}: falta la columna {column}",
    "exchange.unexpected": "{where}: valor inesperado {value}",
    "exchange.too_long": "{where}: texto de más de {limit} caracteres",
    "exchange.control": "{where}: contiene un carácter de control ({char})",
    "exchange.not_finite": "{where}: no es un número finito",
    "exchange.outside": "{where}: {value} no es {must}",
    "exchange.located": "{severity}: {problem}",
    "exchange.too_many_rows": "{where}: {count} filas, más que el límite de {limit} por tabla",
    "exchange.too_many_total": "{where}: más de {limit} filas en total",
    "exchange.not_empty": (
        "el almacén de progreso ya tiene datos; usa --merge (añade lo que falta) o --replace (descarta el "
        "progreso actual): no se importó nada"
    ),
    "exchange.must.timestamp": "un instante entre 1970 y 2100 (segundos desde la época Unix)",
    "exchange.must.unit_interval": "un número finito entre 0 y 1",
    "exchange.must.count": "un número entero entre {low} y {high}",
    "exchange.must.flag": "true, false, 0 o 1",
    "exchange.must.prediction": "un objeto con 'value', 'choice' y 'confidence'",
    "exchange.must.prediction_value": "un objeto cuyo 'value' es un número finito (o null)",
    "exchange.must.prediction_choice": "un objeto cuyo 'choice' es texto (o null)",
    "exchange.must.prediction_confidence": "un objeto cuyo 'confidence' está entre 0 y 1",
    "exchange.must.id": "un id (de 1 a 64 caracteres a-z, 0-9 y '-', sin empezar por '-')",
    "exchange.must.prediction_choice_id": ("un objeto cuyo 'choice' es un id de opción (de 1 a 64 caracteres "
                                           "a-z, 0-9, '-' y '_', sin empezar por '-' ni '_') o null"),
    "exchange.must.entry_id": "un id (de 1 a 64 caracteres a-z, 0-9 y '-', sin empezar por '-') o vacío",
    # tutor.results.reading
    "result.missing": "falta",
    "result.expected": "se esperaba {what}, llegó {got}",
    "result.what.object": "un objeto",
    "result.what.number": "un número",
    "result.what.integer": "un entero",
    "result.what.text": "texto",
    "result.what.flag": "true o false",
    "result.what.flag_or_null": "true, false o null",
    "result.what.texts": "una lista de textos",
    "result.what.numbers": "un objeto de números",
    "result.what.list": "una lista",
    "result.what.device": "un objeto o un tipo de dispositivo",
    "result.what.source": "de dónde sale la verdad",
    # tutor.grading.predict
    "predict.not_number": "«{text}» no es un número",
    "predict.not_finite": "«{text}» no es un número finito",
    "predict.unknown_unit": (
        "'{unit}' no es una unidad que admita esta respuesta: escríbela en {units} (sin unidad: {default})"
    ),
    "predict.no_unit_here": "'{unit}': este número no lleva unidad",
    "predict.out_of_scale": "'{text}' está fuera de escala para una predicción (entre {low} y {high}{unit})",
    "predict.read_as": "leído como {value} {unit} (escribiste {typed} {typed_unit})",
    "predict.confidence_not_number": "la confianza «{text}» no es un número ({low}–100 %)",
    "predict.confidence_not_finite": "la confianza debe ser un número finito ({low}–100 %)",
    "predict.confidence_outside": "la confianza {text} está fuera de {low}–100 %",
    "predict.outside_range": "{value} está fuera del rango aceptado, de {low} a {high}{unit}",
    "predict.not_positive": "{value}: la predicción debe ser un número positivo",
    "predict.empty": "la predicción está vacía",
    "predict.size_not_positive": "{value} GB: el tamaño debe ser positivo",
    "predict.not_a_choice": "«{text}» no es una de las opciones: {choices}",
    # tutor.progress.lease
    "lease.ahead_one": "1 alumno por delante",
    "lease.ahead_many": "{n} alumnos por delante",
    "lease.waiting_tui": "Esperando el dispositivo compartido: {queue} (Esc cancela)",
    "lease.waiting_cli": "esperando el dispositivo compartido: {queue} (Ctrl-C cancela)",
    "lease.held_by": "{who} está midiendo en este dispositivo",
    "lease.cancelled": "cancelado mientras esperaba el dispositivo",
    # tutor.progress.store_errors
    "store.table.sections_read.one": "{n} sección leída",
    "store.table.sections_read.other": "{n} secciones leídas",
    "store.table.attempts.one": "{n} intento",
    "store.table.attempts.other": "{n} intentos",
    "store.table.lab_runs.one": "{n} ejecución de laboratorio",
    "store.table.lab_runs.other": "{n} ejecuciones de laboratorio",
    "store.table.notebook_entries.one": "{n} entrada del cuaderno",
    "store.table.notebook_entries.other": "{n} entradas del cuaderno",
    "store.table.bench_runs.one": "{n} ejecución de bench",
    "store.table.bench_runs.other": "{n} ejecuciones de bench",
    "store.table.doctor_runs.one": "{n} ejecución de doctor",
    "store.table.doctor_runs.other": "{n} ejecuciones de doctor",
    "store.error": "el almacén de progreso {path} no se puede usar: {detail}",
    "store.newer_schema": (
        "{path} lo escribió un GPU Tutor más nuevo (esquema {found}, este conoce {known}); actualiza el tutor"
    ),
    "store.busy": (
        "el almacén de progreso {path} está bloqueado por otro programa (más de {seconds} s); cierra el otro tutor y "
        "vuelve a intentarlo"
    ),
    "store.full": "el disco que guarda {path} está lleno; libera espacio y vuelve a intentarlo (no se perdió nada)",
    "store.read_only": (
        "no se puede escribir en el almacén de progreso {path} (archivo o carpeta de sólo lectura); elige otra carpeta "
        "con --data-dir"
    ),
    "store.io": "error de E/S al usar el almacén de progreso {path} ({detail}); el archivo no se tocó",
    "store.cannot_open": "no se puede abrir el almacén de progreso {path}: {detail}",
    "store.not_a_store": (
        "{path} no es un almacén de progreso de GPU Tutor (no es una base de datos del tutor); se ha dejado "
        "como estaba. Indica un archivo nuevo, una carpeta o un almacén existente"
    ),
    "store.no_path": "--store {path} no indica ningún archivo: da una ruta, sqlite:RUTA o una carpeta",
    "store.corrupt": "el almacén de progreso {path} está dañado ({detail}); reinicia el tutor para apartarlo",
    "store.rejected": "el almacén de progreso rechazó un valor fuera de rango ({detail}); no se guardó nada",
    "store.denied": "la base de datos de progreso {path} rechazó la operación: {detail}",
    "store.unreachable": (
        "el servidor de progreso {path} no responde ({detail}); no se guardó nada, vuelve a intentarlo"
    ),
    "store.schema_writable": (
        "no se usa {path}: {roles} puede crear objetos en su esquema {schema}, y con ellos hacer que el tutor ejecute "
        "su código en tu nombre; su propietario debe ejecutar REVOKE CREATE ON SCHEMA {schema} FROM "
        "{roles}"
    ),
    "store.schema_foreign": (
        "no se usa {path}: su esquema {schema} contiene {objects} de {roles}, creados cuando podía crear allí; "
        "una función o un operador así podría ejecutarse en tu nombre. Un superusuario los quita con DROP OWNED "
        "BY {role} en esta base de datos (o el propietario del esquema borra cada uno: \\df y \\do {schema}.* de "
        "psql los listan)"
    ),
    "store.no_token": (
        "el servidor de progreso {path} pide tu token: pasa --token-file ARCHIVO, añade una línea a ~/.pgpass, o "
        "ejecútalo en un terminal para que te lo pregunte"
    ),
    "store.token_file_unreadable": "no se puede leer el archivo del token {path}: {detail}",
    "store.token_file_open": (
        "otros pueden leer el archivo del token {path}: no se usa; chmod 600 {path} (y pide un token nuevo si otros "
        "pudieron leerlo)"
    ),
    "store.token_file_empty": "el archivo del token {path} no tiene ningún token (la primera línea está vacía)",
    "store.no_row": "no hay ningún {what} {id} tuyo en {path}; no se cambió nada",
    "store.data_dir": "la carpeta de datos {path} no sirve: {detail}",
    "store.recovered": (
        "tutor: la base de datos de progreso estaba dañada; se movió a {backup} y se empezó una nueva (el {at}). "
        "'tutor progress acknowledge' oculta este aviso."
    ),
    # tutor.practice.failures
    "fail.cancelled": "la medición se canceló",
    "fail.prediction_kept": "tu predicción queda guardada",
    "fail.interrupted": "la medición se interrumpió (Ctrl-C)",
    "fail.closing": "la medición se detuvo al cerrar el tutor",
    "fail.killed": (
        "el sistema mató el proceso de medición (SIGKILL): casi seguro se quedó sin memoria. Cierra otros programas o "
        "prueba un tamaño menor"
    ),
    "fail.oom_size": (
        "la medición se quedó sin memoria: pidió {size} y no había. Cierra otros programas o prueba un tamaño menor"
    ),
    "fail.oom": "la medición se quedó sin memoria. Cierra otros programas o prueba un tamaño menor",
    "fail.oom_gpu": " (memoria de la GPU)",
    "fail.crashed": "el proceso de medición se cayó ({detail})",
    "fail.exited": "el proceso de medición terminó de forma inesperada ({detail})",
    "fail.timeout": "la medición tardó demasiado y se detuvo ({detail})",
    "fail.failed": "error dentro de la medición: {detail}",
    "fail.engine": "error del tutor al medir: {detail}",
    "fail.doctor": "el diagnóstico no pudo terminar ({detail})",
    "fail.stalled": "La medición no da señales de vida desde hace {seconds} s: parece atascada. Esc la cancela.",
    # tutor.practice.labs
    "lab.predict.default": "Antes de medir: ¿qué esperas ver? Escribe tu predicción.",
    "lab.predict.need_number": "Escribe un número (en {unit}) antes de medir.",
    "lab.predict.need_positive": "Escribe un número positivo (en {unit}): {text} no puede ser el resultado.",
    "lab.predict.need_text": "Escribe tu predicción antes de medir: primero se predice, luego se mide.",
    # tutor.practice.reveal
    "verdict.correct": "correcto",
    "verdict.inconclusive": "no concluyente",
    "ex.truth.undecided": "esta ejecución no lo decide (tiende a {leaning})",
    "ex.measure_again": "Se vuelve a medir con la misma predicción bloqueada (intento #{id}).",
    "ex.not_counted": "no cuenta",
    "verdict.partly": "en parte",
    "verdict.wrong": "incorrecto",
    "truth.answer_key": "la clave de respuestas del ejercicio",
    "truth.measured": "medido en {device}",
    "truth.measured_labelled": "{measured} — {label}",
    "truth.label.extrapolated": "medido a escala pequeña, extrapolado",
    "truth.label.gpu": "medido en la GPU",
    "truth.bound": "medido en {device}: intensidad aritmética frente al punto de cresta medido",
    "truth.formula_measured": "la fórmula «{formula}» aplicada a entradas medidas (medidas en {device})",
    "truth.formula_given": "la fórmula «{formula}» aplicada a los datos del ejercicio",
    "truth.cpu_fit": (
        "la fórmula de la lección a escala completa (pesos, gradientes y Adam, activaciones, contexto); en "
        "una CPU la medida a escala pequeña se muestra al lado como evidencia"
    ),
    "truth.this_machine": "esta máquina",
    "formula.weights_bytes.name": "pesos = parámetros × bytes por elemento",
    "formula.kv_cache_bytes.name": (
        "caché KV = 2 × capas × cabezas KV × tamaño de cabeza × tokens × lote × bytes por elemento"
    ),
    "formula.inference_bytes.name": "memoria de inferencia = pesos + caché KV (sin el contexto CUDA)",
    "formula.cpu_peak_flops.name": "pico de la CPU = núcleos × frecuencia × FLOPs por ciclo y núcleo",
    "formula.activation_bytes.name": "activaciones = capas × s·b·h·(34 + 5·a·s/h) × bytes/2 (Korthikanti et al."
                                     " 2022; para Llama una aproximación: la atención eager de HF guarda 1,24–1,37×)",
    "formula.adam_training_bytes.name": "memoria de entrenamiento con Adam = parámetros × 16 bytes + activaciones",
    "formula.cuda_context_bytes.name": "contexto CUDA estimado (fuera del asignador de torch)",
    "formula.decode_bound_tokens_per_s.name": "cota de decode = ancho de banda ÷ bytes por token",
    "formula.arithmetic_intensity.name": "intensidad aritmética = FLOPs ÷ bytes movidos",
    "formula.ridge_point.name": "punto de cresta = FLOP/s pico ÷ ancho de banda pico",
    "formula.roofline_attainable.name": "roofline = mín(FLOP/s pico, intensidad × ancho de banda)",
    "formula.gemm_flops.name": "FLOPs de un GEMM = 2·M·N·K",
    "formula.gemm_bytes.name": "bytes de un GEMM = (M·K + K·N + M·N) × bytes por elemento",
    "formula.gemm_intensity.name": "intensidad de un GEMM = 2·M·N·K ÷ ((M·K + K·N + M·N) × bytes)",
    "formula.attention_flops.name": "FLOPs de la atención = 4·B·H·S²·D (QKᵀ y PV)",
    "formula.transformer_forward_flops_per_token.name": "FLOPs de un forward por token ≈ 2 × parámetros",
    "formula.transformer_training_flops_per_token.name": "FLOPs de entrenamiento por token ≈ 6 × parámetros",
    "formula.mfu.name": "MFU = FLOP/s del modelo ÷ FLOP/s pico teóricos",
    "formula.fraction_of_peak.name": "fracción del pico = FLOP/s logrados ÷ FLOP/s pico",
    "formula.flops_ratio.name": "razón de FLOP/s = un ritmo ÷ otro",
    "formula.bandwidth_ratio.name": "razón de anchos de banda = uno ÷ otro",
    "formula.speedup_over_bandwidth_bound.name": "aceleración = (bytes ÷ ancho de banda) ÷ tiempo medido",
    "formula.time_at_rate_s.name": "tiempo = FLOPs ÷ FLOP/s",
    "formula.time_at_bandwidth_s.name": "tiempo = bytes ÷ ancho de banda",
    "ex.prediction": "Tu predicción",
    "ex.verdict": "Veredicto",
    "ex.score": "nota",
    "ex.truth": "La verdad",
    "ex.source": "de dónde sale",
    "ex.explanation": "Explicación",
    "ex.measured": "Medido",
    "ex.confidence_short": "confianza",
    "ex.reproduced": "Reproduce la primera pasada (aprobada en las dos, la 1 antes): cuenta para C0.",
    "ex.not_reproduced": "No reproduce la primera pasada (pasada 1: {first}): no cuenta todavía.",
    "ex.fig.time": "tiempo: mediana {median} ms · mín. {min} ms · CV {cv} % · {runs} ejecuciones",
    "ex.fig.best": "(mejor)",
    "ex.fig.intensity": "intensidad aritmética {ai} FLOP/byte",
    "ex.fig.roofs": "{bw} % del techo de ancho de banda · {compute} % del techo de cómputo",
    "ex.fig.roofline": "roofline medido: {bw} GB/s",
    "ex.fig.ridge": ", punto de cresta {ridge} FLOP/byte",
    "ex.fig.cached": " (de la caché)",
    "ex.fig.datasheet": "ficha técnica ({name}): {bw} GB/s",
    "ex.fig.telemetry": "telemetría de la medición — {line}",
    # tutor.practice.sizing
    "setup.dram": (
        "Esta ejecución: {what}, {multiple}× tu {llc_name} de {llc} (el último nivel; {source}): mide la DRAM."
    ),
    "setup.partial": (
        "Esta ejecución: {what}, solo {multiple}× tu {llc_name} de {llc} (el último nivel; {source}): una parte puede "
        "quedarse en caché y salir por encima de tu DRAM."
    ),
    "setup.cache": (
        "Esta ejecución: {what}, que caben en tu {llc_name} de {llc} (el último nivel; {source}): mide la caché, no la "
        "DRAM."
    ),
    "setup.arrays": "{arrays} arrays de {each} ({total} en total)",
    "setup.one_array": "un array de {total}",
    "setup.bytes": "{total} en memoria",
    "setup.read": "leída del sistema",
    "setup.simulated": "SIMULADA desde {path}, no son las cachés de esta máquina",
    "setup.fallback": "tamaño típico: no se pudo leer la de tu máquina",
    "setup.capped": " El tamaño quedó limitado por el presupuesto de memoria o la RAM libre.",
    # tutor.practice.unfinished
    "unfinished.line": (
        "#{id} {exercise} (pasada {pass_n}): predicción «{prediction}» bloqueada el {when}, nunca medida"
    ),
    "unfinished.title": "Intentos sin terminar (se cerró el tutor o se mató la medición):",
    "unfinished.cli_hint": (
        "  mídelo: tutor exercise run {exercise} --resume {id} · descártalo: tutor exercise discard {id}"
    ),
    "unfinished.screen": (
        "El intento #{id} (predicción «{prediction}», {when}) se bloqueó y nunca se midió. Puedes medirlo ahora con "
        "esa predicción o descartarlo."
    ),
    "unfinished.open_exercise": "Abre el ejercicio para medirlo ahora o descartarlo.",
    "unfinished.resume": "Medirlo ahora",
    "unfinished.discard": "Descartarlo",
    "unfinished.discarded": "Intento #{id} descartado.",
    # tutor.progress.class_report
    "creport.title": "Informe de la clase",
    "creport.learners": "{n} alumnos: {names}",
    "creport.exercises": "Ejercicios",
    "creport.col_exercise": "Ejercicio",
    "creport.col_graded": "Corregidos",
    "creport.col_correct": "Aciertos",
    "creport.col_wrong": "Error más común",
    "creport.wrong_choice": "«{answer}» ({count}×)",
    "creport.wrong_high": "demasiado alto ({count}×, mediana ×{ratio})",
    "creport.wrong_low": "demasiado bajo ({count}×, mediana ×{ratio})",
    "creport.calibration": "Calibración de la clase",
    "creport.brier": "Brier {brier} sobre {n} predicciones corregidas (0 es perfecto; 0,25 es decir siempre 50 %)",
    "creport.bucket": "con una confianza del {low} al {high} %: {right} de {total} acertadas ({rate})",
    "creport.c0": "C0 por alumno",
    "creport.col_learner": "Alumno",
    "creport.roofline": "Roofline de la clase (por dispositivo)",
    "creport.col_bw": "Ancho de banda medido",
    "creport.col_flops": "FLOP/s medidos (fp32)",
    "creport.col_ridge": "Punto de cresta",
    "creport.col_source": "De",
    "creport.none": "todavía nada",
    "creport.device": "Dispositivo {name} (huella {fp})",
    # tutor.progress.classroom
    "class.bad_name": (
        "nombre de alumno no válido «{name}»: de 2 a 31 letras minúsculas, cifras o _, empezando por letra, y "
        "que no sea una palabra reservada de PostgreSQL (user, current_user, all, public…) ni pg_… o tutor_…"
    ),
    "class.exists": "ya existe un rol {name} en el servidor; elige otro nombre",
    "class.leases_none": "Ahora no hay ningún dispositivo reservado.",
    "class.lease_line": "sesión {pid}  {learner}  en {device}  {since}  {waiting} esperando",
    "class.lease_for": "reservado hace {seconds} s",
    "class.lease_since_unknown": "reservado desde un momento desconocido (no es una reserva del tutor)",
    "class.lease_unknown": "un dispositivo que no nombra",
    "class.lease_broken": "Rota: {line}",
    "class.break_what": (
        "di qué reserva romper: un número de sesión o un alumno (ver tutor class leases), o --older-than SECONDS"
    ),
    "class.lease_not_found": "ninguna reserva de dispositivo vigente coincide; ver tutor class leases",
    "class.break_denied": (
        "este rol no puede terminar la sesión de {learner}: como superusuario del servidor ejecuta GRANT "
        "pg_signal_backend TO {owner}"
    ),
    "class.instructor_superuser": (
        "rechazado: {name} es superusuario, y una clase no necesita más que un rol con CREATEROLE (ver el README): "
        "lo que un alumno lograra ejecutar como el instructor se ejecutaría con todos los derechos del servidor. "
        "Crea uno (createuser --createrole --pwprompt teacher) y ejecuta tutor class init con él, o pasa "
        "--allow-superuser"
    ),
    "class.learner_privileged": (
        "rechazado: el rol de alumno {name} tiene más derechos que los de un alumno ({extra}; {more} más así). Como "
        "su administrador, haz REVOKE de esos roles FROM {name} y ALTER ROLE {name} NOSUPERUSER NOCREATEROLE "
        "NOCREATEDB NOBYPASSRLS NOREPLICATION, y vuelve a ejecutar tutor class init"
    ),
    "class.learners_none": "Aún no hay alumnos: tutor class add-learner NOMBRE",
    "class.learner_line": "{name}  {login}  {sessions} sesiones abiertas{extra}",
    "class.learner_can_login": "puede entrar",
    "class.learner_cannot_login": "no puede entrar",
    "class.learner_extra": "  MÁS QUE UN ALUMNO: {extra}",
    "class.learner_token_changed": (
        "  TOKEN CAMBIADO por el alumno (ALTER ROLE ... PASSWORD): tutor class reset-token {name} vuelve a poner el "
        "tuyo"
    ),
    "class.learners_tokens_unknown": (
        "No se muestra si un alumno cambió su token por una contraseña suya: solo un superusuario puede leer "
        "pg_authid, y un token puesto antes de esta comprobación no tiene huella. tutor class reset-token NOMBRE "
        "le pone uno nuevo, haya hecho lo que haya hecho."
    ),
    "class.token_reset": "Token nuevo para {name}: el anterior ya no sirve.",
    "class.learner_removed": "Alumno {name} eliminado: su rol ya no existe; sus filas siguen en el informe.",
    "class.not_a_learner": "{name} no es alumno de esta clase (tutor class learners los lista); no se cambió nada",
    "class.not_postgres": "una clase necesita un almacén PostgreSQL: pasa --store postgresql://… (o TUTOR_STORE)",
    # tutor.ui.keys
    "key.help": "Ayuda",
    "key.back": "Volver",
    "key.lang": "es/en",
    "key.lang_letter": "es/en",
    "key.quit": "Salir",
    "key.telemetry": "Telemetría",
    "key.telemetry_enlarge": "Ampliar telemetría",
    "key.hint": "Pista",
    "key.lock": "Bloquear",
    "key.run": "Medir",
    "key.next_pending": "Siguiente pendiente",
    "key.view_code": "Ver código",
    "key.open": "Abrir",
    "key.second_pass": "2.ª pasada",
    "key.progress": "Progreso",
    "key.notebook": "Cuaderno",
    "key.next_section": "Siguiente",
    "key.previous_section": "Anterior",
    "key.write_lock": "Escribir lock",
    "key.reset_lesson": "Borrar lección",
    "key.reset_exercise": "Borrar ejercicio",
    "key.reset_all": "Borrar todo",
    "key.save": "Guardar",
    "key.export": "Exportar a Markdown",
    "key.class_report": "Informe de la clase",
    "key.app.quit_all": "Salir",
    "key.palette": "paleta",
    "key.close": "Cerrar",
    "key.cancel": "Cancelar",
    # tutor.ui.marks
    "marks.reproduced": "reproducido",
    "pass2.closed": "La pasada 2 se abre cuando hayas intentado la pasada 1 de este ejercicio (Intro la abre).",
    # tutor.ui.screens.course_map
    "map.loading": "cargando el curso… {done} de {total} archivos",
    "map.more_lessons": "… y {n} lecciones más",
    "map.load_failed": "No se pudo cargar el curso",
    # tutor.ui.widgets.telemetry_panel
    "tel.waiting_banner": "Telemetría: esperando la primera muestra…",
    "tel.replay": "▶ REPLAY (grabación)",
    "tel.na": "N/D",
    "tel.no_devices": "No hay dispositivos que mostrar.",
    "tel.reading": "Leyendo los dispositivos…",
    "tel.waiting": "esperando la primera muestra…",
    "tel.lost": "PERDIDA — sin lecturas (la GPU necesita un reset o reiniciar el equipo)",
    "tel.busy": "activa",
    "tel.mem_bus": "bus mem",
    "tel.power": "potencia",
    "tel.cores": "núcleos",
    "tel.load": "carga",
    "tel.busy_note": "activa: fracción del tiempo en que corría algún kernel (no es la ocupación de los SM)",
    "tel.mem_bus_note": "bus mem: fracción del tiempo en que se leía o escribía la memoria",
    "tel.clocks_held": "relojes limitados por: ",
    "tel.processes": "procesos:",
    "tel.note": "nota: {note}",
    "tel.minutes_ago": "minutos atrás",
    "tel.chart_title": "% en los últimos minutos",
    "tel.chart_replay": " (replay)",
    "tel.chart_empty": "historial: aún no hay muestras",
    "tel.stale": "⚠ SIN DATOS RECIENTES — última lectura hace {age} s (el driver no responde)",
    "tel.stale_host": (
        "⚠ SIN DATOS RECIENTES — última lectura hace {age} s (el muestreo no ha corrido: la "
        "máquina está muy ocupada)"
    ),
    "tel.stale_replay": (
        "⚠ SIN DATOS RECIENTES — última lectura hace {age} s (la traza grabada no tiene muestras "
        "más nuevas)"
    ),
    "tel.expand_hint": "ctrl+t amplía la telemetría",
    # tutor.ui.app
    "palette.help": "Ayuda: teclas de esta pantalla",
    "palette.lang": "Idioma: español / English",
    "palette.map": "Mapa del curso",
    "palette.map_help": "Volver al mapa",
    "palette.progress": "Progreso",
    "palette.progress_help": "Checklist C0, lecciones, calibración e historial",
    "palette.notebook": "Cuaderno de laboratorio",
    "palette.notebook_help": "Tus entradas de laboratorio: editar, exportar a Markdown",
    "palette.doctor": "Doctor: diagnóstico del entorno",
    "palette.doctor_help": "Driver, torch, CUDA y el lock del entorno",
    "palette.bench": "Bench: medir esta máquina",
    "palette.bench_help": "El laboratorio del bench",
    "bench.cli.could_not_finish": "el bench no pudo terminar: {reason}",
    "bench.cli.took": "tardó {seconds} s",
    "bench.cli.wrote": "escrito: {files}",
    "bench.cli.json_on_stdout": "el informe JSON va a la salida estándar",
    "bench.cv_spread": "CV: la dispersión entre las rondas de esa misma ejecución",
    "bench.estimator": (
        "cada cifra: la mediana de {rounds} rondas intercaladas, el valor de una ronda el mejor de sus "
        "llamadas (entrenamiento: de {train_steps}); decodificación: la mediana de {decode_rounds} "
        "rondas, el ancho de banda de su cota el mejor de {read_passes} de los pesos en cada una; "
        "CV = la dispersión entre las rondas"
    ),
    "bench.no_previous": (
        "No hay una ejecución anterior en esta huella: vuelve a ejecutar el bench para la segunda pasada."
    ),
    "bench.fig.peak_bandwidth_gbs": "ancho de banda pico",
    "bench.fig.matmul": "pico de matmul {dtype}",
    "bench.fig.ridge_flops_per_byte": "punto de cresta (fp32)",
    "bench.fig.decode_tokens_per_s": "decodificación, lote 1",
    "bench.fig.decode_bound_tokens_per_s": "cota de decodificación, lote 1",
    "bench.fig.train_tokens_per_s": "paso de entrenamiento",
    "bench.fig.mfu": "MFU",
    "bench.col.figure": "cifra",
    "bench.col.value": "valor",
    "bench.col.unit": "unidad",
    "bench.col.vs": "frente a la anterior",
    "bench.table.title": "tutor bench ({mode}) en {kind}: {name}  [huella {fingerprint}]",
    "bench.table.agrees": "coincide",
    "bench.table.differs": "DIFIERE",
    "bench.table.agree": "coinciden",
    "bench.table.disagree": "NO coinciden",
    "bench.table.compared": (
        "las dos pasadas {verdict} (ejecución anterior: {mode}): cada cifra dentro de máx({tol}, 2·√(CV₁² + "
        "CV₂²)), como mucho {cap}"
    ),
    "bench.shift": (
        "Todos los picos de matmul se movieron en el mismo sentido (×{lo} a ×{hi}{memory}): los núcleos calcularon "
        "a otra velocidad durante una de las ejecuciones (otro trabajo en un host compartido, el reloj), no falló "
        "una medida. Repite las dos cuando la máquina esté tranquila."
    ),
    "bench.shift.machine": (
        "Todas las cifras se movieron en el mismo sentido (los picos de matmul ×{lo} a ×{hi}, las de memoria ×{mlo} "
        "a ×{mhi}): la máquina entera estuvo más cargada o más libre durante una de las ejecuciones (otro programa, "
        "otro trabajo en un host compartido), no falló una medida. Repite las dos cuando la máquina esté tranquila."
    ),
    "bench.shift.memory": "; las de memoria, ×{lo} a ×{hi}",
    "bench.table.no_previous": "no hay una ejecución anterior en esta huella con la que comparar",
    "bench.table.warning": "aviso: {warning}",
    "bench.md.title": "Bench de GPU Tutor — {device}",
    "bench.md.mode": "modo: {mode}; dispositivo: {kind}; huella `{fingerprint}`",
    "bench.md.env": "torch {torch}, {cuda}, Python {python}, {threads} hilos de torch",
    "bench.md.cuda": "CUDA {version}",
    "bench.md.no_cuda": "este torch no trae CUDA",
    "bench.md.took": "duró {seconds} s",
    "bench.md.agrees": "coincide",
    "bench.md.differs": "difiere",
    "bench.md.agree": "coinciden",
    "bench.md.disagree": "no coinciden",
    "bench.md.compared": (
        "Comparado con la ejecución anterior en esta huella, las dos pasadas {verdict} dentro del {tol} (cada "
        "cifra dentro de máx({tol}, 2·√(CV₁² + CV₂²)), como mucho {cap}: dos veces el ruido de las dos "
        "ejecuciones combinado)."
    ),
    "bench.md.how": "Cómo se midieron",
    "bench.method.mfu": "MFU sobre un pico teórico de {gflops} GFLOP/s = {source}",
    "bench.clock.cpufreq": "de cpufreq (cpuinfo_max_freq, el reloj máximo con turbo)",
    "bench.clock.cpuinfo": (
        "de «cpu MHz» en /proc/cpuinfo (sin cpufreq: el reloj actual o, en una VM, el base del anfitrión, que "
        "los núcleos superan con turbo)"
    ),
    "bench.clock.implied": (
        "como mínimo: lo necesita el matmul {dtype} medido, mientras que la fuente {clock} da {reported} GHz "
        "(así que este pico es una cota inferior y un MFU sobre él, una superior)"
    ),
    "bench.peak.cpu": "{cores} núcleos × {ghz} GHz {clock} × {per_cycle} FLOP por ciclo y núcleo",
    "bench.peak.datasheet": "la ficha técnica: {source}",
    "bench.estimator.median": "la mediana sobre las rondas del valor de cada ronda",
    "bench.note.bandwidth": (
        "ancho de banda pico: copia STREAM (2 palabras por elemento), {estimator}, el valor de una ronda la "
        "mejor de sus copias; {rounds} rondas intercaladas con las demás cifras, arrays de {array} (caché de "
        "último nivel de {llc})"
    ),
    "bench.note.bandwidth_stream": (
        "ancho de banda pico: copia STREAM (2 palabras por elemento), {best}: la copia más rápida de {rounds} "
        "rondas intercaladas con las demás cifras, como stream.c da su mejor tasa (triad, 3 palabras: {triad}). "
        "Junto a ella, la mediana de las mejores copias de cada ronda, {median}: en una máquina compartida los "
        "demás programas solo pueden frenar una copia, y mientras uno de ellos ocupa un núcleo, una copia "
        "repartida entre todos los núcleos avanza al ritmo del hilo que lo comparte; la mediana dice cuán "
        "ocupada estaba la máquina, y la mejor, lo que mueve su memoria. Arrays de {array} (caché de último "
        "nivel de {llc})"
    ),
    "bench.estimator.stream": (
        "ancho de banda pico: la copia más rápida de {rounds} rondas intercaladas, como la da STREAM; cada una "
        "de las demás cifras: la mediana de las rondas, el valor de una ronda el mejor de sus llamadas "
        "(entrenamiento: de {train_steps}); decodificación: la mediana de {decode_rounds} rondas, el ancho de "
        "banda de su cota el mejor de {read_passes} de los pesos en cada una; CV = la dispersión entre las rondas"
    ),
    "bench.note.matmul": (
        "pico de matmul: torch.mm de matrices cuadradas aleatorias ({n}³, el tamaño más rápido de los "
        "probados), {estimator}, el valor de una ronda la mejor de {calls} llamadas"
    ),
    "bench.note.ridge": "punto de cresta: pico de matmul fp32 ÷ ancho de banda pico",
    "bench.note.decode": (
        "decodificación: el transformer incluido de {params} parámetros (pesos aleatorios, {dtype}), {steps} "
        "tokens tras un prompt de {prompt} tokens; cota = ancho de banda que alimenta los pesos (medido "
        "leyéndolos) ÷ bytes por token (los pesos, leídos una vez por paso, + la caché KV)"
    ),
    "bench.note.training": (
        "entrenamiento: lote {batch} × {seq} tokens, AdamW, {precision}; MFU = FLOPs por paso "
        "(FlopCounterMode) ÷ tiempo del paso ÷ el pico teórico de {dtype} ({peak}); {fraction} del pico de "
        "matmul medido"
    ),
    "bench.note.peak": "{gflops} GFLOP/s, {source}",
    "bench.note.unknown": "desconocido",
    "bench.note.threads": (
        "hilos: torch fijado a {threads} durante toda la ejecución (la decodificación con lote 1, a {decode}, "
        "el más rápido en una prueba corta)"
    ),
    "bench.note.rounds": (
        "rondas: {count} rondas intercaladas de {order}, y luego {decode} de decodificación (su modelo, "
        "dimensionado para la caché, no cabe en memoria junto a ellas); cada cifra es {estimator}"
    ),
    "bench.note.comparison": (
        "comparación: dos ejecuciones coinciden cuando cada cifra difiere como mucho máx(mínimo, {k}·√(CV₁² + "
        "CV₂²)) —dos veces el ruido de las dos ejecuciones combinado—, con un mínimo de {floor} y un techo de "
        "{cap}"
    ),
    "bench.note.cv": (
        "CV = la dispersión entre los valores de las rondas (de las entradas del estimador, no de muestras "
        "sueltas); el punto de cresta y el MFU combinan los CV de sus entradas"
    ),
    "bench.round.bandwidth": "ancho de banda",
    "bench.round.training": "entrenamiento",
    "bench.round.matmul": "matmul {dtype}",
    "palette.lesson": "Lección: {title}",
    "palette.lab": "Laboratorio: {title}",
    "palette.exercise": "Ejercicio: {title}",
    "palette.open_lesson": "Abrir: {title}",
    "palette.lesson_help": "Lección {id}",
    "palette.placeholder": "Busca una orden…",
    "palette.no_matches": "Nada coincide",
    "palette.quit": "Salir",
    "palette.quit_help": "Cerrar el tutor ya (una medición en curso se detiene)",
    "palette.screenshot": "Captura de pantalla",
    "palette.screenshot_help": "Guardar una captura SVG de esta pantalla",
    # the one notice for work that did not finish (ui/app.py on_work_failed): its title, by kind
    "work.exercise": "Medición del ejercicio",
    "work.lab": "Medición del laboratorio",
    "work.doctor": "Diagnóstico del entorno",
    "work.login": "Entrar a la clase",
    "work.course": "No se pudo cargar el curso",
    "work.roofline": "Nueva medición del roofline",
    "work.other": "Tarea en segundo plano",
    "work.error": "error inesperado: {detail}",
    # tutor.ui.screens.class_report
    "creport.chart": "Roofline de la clase: intensidad aritmética (FLOP/B) frente a GFLOP/s; un color por dispositivo",
    "creport.chart_empty": "Ningún alumno ha medido todavía su roofline.",
    # tutor.ui.screens.code
    "code.intro": (
        "Esto es exactamente lo que se cronometra: la función que prepara los datos (fuera del tiempo), la lambda que "
        "se mide y el bucle de tiempo que la llama. Esc cierra."
    ),
    "code.none": "Esta medida no cronometra una sola función (doctor, bench o VRAM): no hay código que mostrar.",
    # tutor.ui.screens.doctor
    "doctor.title": "Diagnóstico del entorno (tutor doctor)",
    "doctor.cli.lock_written": (
        "Lock del entorno guardado en {path}; lo reconstruyen {requirements} (pip install -r) y {dockerfile} "
        "(FROM {image}). Para C0, compruébalo en otro proceso (mejor en el entorno reconstruido) con 'tutor "
        "doctor --check-lock'."
    ),
    "doctor.cli.title": "GPU Tutor doctor — {torch} en {system} {machine}, Python {python}",
    "doctor.cli.no_torch": "sin torch",
    "doctor.cli.cannot_write_lock": "no se puede escribir el lock del entorno {path}: {reason}",
    "doctor.cli.not_recorded": "aviso: esta ejecución del doctor no quedó guardada en tu progreso: {reason}",
    "doctor.cli.summary": (
        "Diagnóstico {verdict}: {fail} fallo(s), {warn} aviso(s), {ok} bien, {skip} no aplican ({seconds} s)."
    ),
    "doctor.cli.passed": "superado",
    "doctor.cli.failed": "con FALLOS",
    "doctor.headline.gpu_usable": "GPU NVIDIA: {names} — torch puede usarla.",
    "doctor.headline.gpu_unusable": "GPU NVIDIA: {names} — torch aún no puede usarla.",
    "doctor.headline.no_driver": "Hay una GPU NVIDIA, pero el driver no responde — torch no puede usarla.",
    "doctor.headline.cpu": "No se encontró ninguna GPU NVIDIA — en esta máquina el curso funciona con la CPU.",
    "doctor.lock.difference": "{name}: {locked} en el lock, {current} ahora",
    "doctor.lock.absent": "ausente",
    "doctor.lock.wrote": (
        "lock del entorno guardado en {path}, que fija {pinned}; se reconstruye con {requirements} (pip) o "
        "{dockerfile} (FROM {image})"
    ),
    "doctor.lock.none": "todavía no hay lock del entorno ({path})",
    "doctor.lock.none_fix": "Escribe uno con 'tutor doctor --lock' cuando torch, el driver y la GPU estén sanos.",
    "doctor.lock.rewrite": "Vuelve a escribirlo con 'tutor doctor --lock'.",
    "doctor.lock.age": ", hace {age}",
    "doctor.lock.written": "escrito el {created}{age}",
    "doctor.lock.undated": "sin fecha de escritura{age}",
    "doctor.lock.pins": "; fija {pins}",
    "doctor.lock.no_rebuild": "; no guarda nada con que reconstruirlo — vuelve a escribirlo con 'tutor doctor --lock'",
    "doctor.lock.matches": "el entorno coincide con el lock {path} ({written}){extra}",
    "doctor.lock.differs": "{n} diferencia(s) con el lock {path} ({written}): {keys}",
    "doctor.lock.differs_fix": (
        "Si el cambio era a propósito, repite los benchmarks y escribe un lock nuevo con 'tutor doctor "
        "--lock'; si no, vuelve a las versiones del lock."
    ),
    "doctor.lockfile.missing": "no hay lock del entorno en {path} (escribe uno con 'tutor doctor --lock')",
    "doctor.lockfile.unreadable": "no se puede leer el lock del entorno {error}",
    "doctor.lockfile.not_json": "{error} (no es JSON válido)",
    "doctor.lockfile.no_schema": "ninguno",
    "doctor.lockfile.not_object_here": "no es un lock del entorno (se esperaba un objeto JSON)",
    "doctor.lockfile.schema_here": "no es un lock del entorno (esquema {schema}, se esperaba {expected})",
    "doctor.running": "Revisando torch, el driver, la GPU y el entorno…",
    "doctor.rerun": "Repetir",
    "doctor.write_lock": "Guardar lock",
    "doctor.passed": "Sin fallos: {fail}, {warn}, {ok}, {skip} ({seconds} s).",
    "doctor.failed": "Hay fallos: {fail}, {warn}, {ok}, {skip} ({seconds} s).",
    "doctor.lock_written": "Lock del entorno guardado en {path}",
    "doctor.status.ok": "bien",
    "doctor.status.warn": "aviso",
    "doctor.status.fail": "fallo",
    "doctor.status.skip": "no aplica",
    "doctor.join": "{first}; {rest}",
    "doctor.space": "{first} {rest}",
    "doctor.paren": " ({text})",
    "doctor.crashed": "esta comprobación se ha roto: {error}",
    "doctor.crashed_fix": "Por favor, avisa del error; las demás comprobaciones no se ven afectadas.",
    "doctor.gpu_names.evidence": "una GPU NVIDIA ({evidence})",
    "doctor.torch.missing": "no se puede importar torch ({error})",
    "doctor.torch.not_installed": "no está instalado",
    "doctor.torch.install": (
        "Instálalo en este entorno: pip install torch (añade --index-url "
        "https://download.pytorch.org/whl/cu128 para una GPU NVIDIA)."
    ),
    "doctor.torch.build_rocm": "compilación ROCm {version}",
    "doctor.torch.build_cuda": "compilación CUDA {cuda}{cudnn}",
    "doctor.torch.build_cpu": "compilación solo para CPU (sin CUDA)",
    "doctor.torch.devices.one": " ({n} dispositivo)",
    "doctor.torch.devices.other": " ({n} dispositivos)",
    "doctor.torch.ok": "torch {version}, {build}; torch.cuda.is_available() = {available}{devices}",
    "doctor.gpu.cc": "capacidad de cómputo {cc}, ",
    "doctor.gpu.memory_unknown": "memoria desconocida",
    "doctor.gpu.device": "GPU{index} {name} ({cc}{arch}{mem}; vía {source})",
    "doctor.gpu.with_driver": "{details}; driver {driver}",
    "doctor.gpu.no_nvml": "hay una GPU NVIDIA ({evidence}) pero NVML no consigue hablar con ella ({error})",
    "doctor.gpu.nvml_found_none": "NVML no encontró dispositivos",
    "doctor.gpu.install_driver": (
        "Instala o carga el driver de NVIDIA (Linux: el paquete nvidia-driver de la distribución y reinicia; "
        "WSL2: instala solo el driver de Windows) y comprueba que nvidia-smi muestra la GPU."
    ),
    "doctor.gpu.looked_nvml": "NVML: {error}",
    "doctor.gpu.no_devices": "sin dispositivos",
    "doctor.gpu.looked_proc": "no existe /proc/driver/nvidia",
    "doctor.gpu.looked_dev": "no existe /dev/nvidia0",
    "doctor.gpu.looked_pci": "ningún dispositivo NVIDIA en el bus PCI",
    "doctor.gpu.looked_smi": "nvidia-smi: {state}",
    "doctor.gpu.present": "presente",
    "doctor.gpu.looked_no_smi": "no hay nvidia-smi",
    "doctor.gpu.none": "no hay GPU NVIDIA en esta máquina ({looked})",
    "doctor.gpu.cpu_course": (
        "Nada que arreglar para el camino de CPU: cada laboratorio y ejercicio mide con torch en la CPU, la "
        "telemetría muestra CPU y RAM, y C0 se obtiene como «C0 (CPU)». Necesitan GPU: la telemetría NVML, "
        "los tiempos con CUDA y las comprobaciones de sm_120."
    ),
    "doctor.torch_build.not_installed": "torch no está instalado",
    "doctor.torch_build.cpu_wheel": (
        "torch {version} es una rueda de torch solo para CPU, pero esta máquina tiene {gpus}: "
        "torch.cuda.is_available() es False y todas las cifras saldrían de la CPU"
    ),
    "doctor.torch_build.use_cuda": "Cámbiala por una compilación con CUDA: {hint} (CUDA 12.8+ para la serie RTX 50).",
    "doctor.torch_build.cpu_ok": "torch {version} es una compilación para CPU, la adecuada para una máquina sin GPU",
    "doctor.torch_build.rocm": "torch {version} es una compilación ROCm; este curso está pensado para CUDA de NVIDIA",
    "doctor.torch_build.rocm_fix": "Para una GPU NVIDIA instala una compilación con CUDA: {hint}",
    "doctor.torch_build.cuda_ok": "torch {version} está compilado para CUDA {cuda}",
    "doctor.driver.no_gpu": "no hay GPU NVIDIA, así que no hay driver que revisar",
    "doctor.driver.unreadable": "no se pudo leer la versión del driver de NVIDIA{nvml}",
    "doctor.driver.install": "Instala el driver de NVIDIA y comprueba que nvidia-smi funciona.",
    "doctor.driver.supports": ", que admite CUDA hasta la {cuda}",
    "doctor.driver.seen": "driver {version} ({where}){supports}",
    "doctor.driver.blackwell": "{seen}; la {gpu} necesita la rama R{branch} o posterior",
    "doctor.driver.blackwell_fix": "Instala un driver ≥ {minimum} (R570+; en Linux, los módulos de kernel abiertos).",
    "doctor.driver.no_torch_cuda": "{seen}; torch no es una compilación CUDA con la que compararlo",
    "doctor.driver.no_minimum": "{seen}; no hay un mínimo registrado para CUDA {cuda}",
    "doctor.driver.check_notes": "Consulta en las notas de versión de CUDA de NVIDIA qué driver necesita este CUDA.",
    "doctor.driver.ok": "{seen}; CUDA {cuda} de torch necesita ≥ {needed}",
    "doctor.driver.update": (
        "Actualiza el driver de NVIDIA a ≥ {needed}{wsl}, o instala un torch compilado para un CUDA más "
        "antiguo (p. ej. {older})."
    ),
    "doctor.driver.wsl_note": " en Windows (WSL2 usa el driver de Windows; no instales nada dentro de WSL)",
    "doctor.driver.minor_compat": (
        "{seen}; CUDA {cuda} de torch pide ≥ {needed} y con este driver solo funciona gracias a la "
        "compatibilidad de versión menor (sin JIT de PTX)"
    ),
    "doctor.driver.too_old": (
        "{seen}; driver demasiado antiguo para CUDA {cuda} de torch, que necesita ≥ {needed} — torch avisa "
        '"The NVIDIA driver on your system is too old"'
    ),
    "doctor.cuda_available.no_gpu": "no hay GPU NVIDIA: torch funciona en la CPU",
    "doctor.cuda_available.cpu_build": "torch no es una compilación CUDA (ver torch_build)",
    "doctor.cuda_available.ok": "torch.cuda.is_available() = True, {n} dispositivo(s)",
    "doctor.cuda_available.container_no_dev": "este contenedor no tiene /dev/nvidia0",
    "doctor.cuda_available.unavailable": (
        "torch es una compilación CUDA pero torch.cuda.is_available() = False{reasons}"
    ),
    "doctor.cuda_available.fix": (
        'Mira las comprobaciones driver, cuda_visible_devices y container; python -c "import torch; '
        'torch.cuda.init()" muestra el error de CUDA de fondo.'
    ),
    "doctor.kernel_image.no_pair": "no hay a la vez un torch con CUDA y una GPU NVIDIA que comparar",
    "doctor.kernel_image.arch_empty": "vacía",
    "doctor.kernel_image.cc_unknown": "{name}: capacidad de cómputo desconocida",
    "doctor.kernel_image.sass": "{name} es {sm}; torch trae {sass}",
    "doctor.kernel_image.ptx": (
        "{name} es {sm}; torch no trae código máquina para {sm}, solo PTX {ptx} (se compila con JIT en el "
        "primer lanzamiento: arranque lento y por debajo del pico)"
    ),
    "doctor.kernel_image.ptx_fix": "Instala una compilación de torch con kernels para {sm}: {hint}",
    "doctor.kernel_image.none": (
        "{name} es {sm}, {arch_name}; no hay imagen de kernel para {sm}: en la lista de arquitecturas de "
        "torch [{arch}] no hay nada que corra en ella"
    ),
    "doctor.kernel_image.fix_cuda128": (
        "Instala un torch compilado para CUDA 12.8 o posterior, cuyas ruedas incluyen {sm}: {hint}"
    ),
    "doctor.kernel_image.fix_include": "Instala una compilación de torch que incluya {sm}.",
    "doctor.kernel_image.not_run": "{seen}; el kernel de prueba no se lanzó",
    "doctor.kernel_image.ran": "{seen}; un kernel de prueba se ejecutó en {device} en {seconds} s",
    "doctor.kernel_image.no_image": '{seen}; el kernel de prueba falló: "CUDA error: {error}"',
    "doctor.kernel_image.fix_generic": "Instala una compilación de torch con kernels para esta GPU: {hint}",
    "doctor.kernel_image.timeout": "{seen}; el kernel de prueba no terminó a tiempo ({error})",
    "doctor.kernel_image.hang_fix": (
        "Algo se cuelga al inicializar CUDA: revisa nvidia-smi y dmesg por si hay errores Xid."
    ),
    "doctor.kernel_image.failed": "{seen}; el kernel de prueba falló: {error}",
    "doctor.kernel_image.run_to_see": (
        'Ejecuta python -c "import torch; torch.ones(1, device=\'cuda\')" para ver el error completo.'
    ),
    "doctor.wsl.not_wsl": "no es WSL2",
    "doctor.wsl.linux_libcuda": (
        "WSL2, pero dentro de WSL hay instalada la libcuda de un driver de Linux ({found}), que tapa la del "
        "driver de Windows"
    ),
    "doctor.wsl.linux_libcuda_fix": (
        "Quita de WSL el driver NVIDIA de Linux (p. ej. sudo apt remove --purge 'nvidia-driver-*' "
        "'libnvidia-compute-*'); WSL2 solo necesita el driver de Windows."
    ),
    "doctor.wsl.missing": "WSL2, pero falta {path}: el driver NVIDIA de Windows no ofrece CUDA a WSL",
    "doctor.wsl.missing_fix": (
        "Instala el driver NVIDIA actual en Windows (no dentro de WSL); luego wsl --shutdown y vuelve a abrir "
        "WSL."
    ),
    "doctor.wsl.ok": (
        "WSL2; CUDA viene del driver de Windows ({path}); no hay driver de Linux dentro de WSL, como debe ser "
        "(en WSL2 NVML no puede listar los procesos de la GPU)"
    ),
    "doctor.container.not_in": "no está en un contenedor",
    "doctor.container.passed_through": (
        "dentro de un contenedor ({evidence}); la GPU llega al contenedor (NVIDIA Container Toolkit)"
    ),
    "doctor.container.not_passed": (
        "dentro de un contenedor ({evidence}); la GPU del anfitrión no llega al contenedor (no hay un "
        "/dev/nvidia0 utilizable)"
    ),
    "doctor.container.not_passed_fix": (
        "Arranca el contenedor con --gpus all (Docker con el NVIDIA Container Toolkit instalado; Podman: "
        "--device nvidia.com/gpu=all)."
    ),
    "doctor.container.none": (
        "dentro de un contenedor ({evidence}); no se le pasó ninguna GPU y, por lo que se ve, el anfitrión "
        "tampoco tiene"
    ),
    "doctor.container.none_fix": (
        "Si el anfitrión sí tiene una GPU NVIDIA: instala allí el NVIDIA Container Toolkit y arranca el "
        "contenedor con --gpus all."
    ),
    "doctor.cvd.unset": "CUDA_VISIBLE_DEVICES no está definida: todas las GPU son visibles",
    "doctor.cvd.no_gpu": "{seen}; de todos modos aquí no hay GPU NVIDIA",
    "doctor.cvd.fix": (
        "Quita CUDA_VISIBLE_DEVICES (unset CUDA_VISIBLE_DEVICES) o dale índices de GPU que existan (p. ej. "
        "0)."
    ),
    "doctor.cvd.empty": "está vacía",
    "doctor.cvd.starts_with": "empieza por {bad}, que no es un índice ni un UUID de GPU",
    "doctor.cvd.none_visible": '{seen} {why}: CUDA no ve ninguna GPU (torch: "No CUDA GPUs are available")',
    "doctor.cvd.stops": "{seen}: CUDA se detiene en {bad}, así que solo se ve {shown}",
    "doctor.cvd.ok": "{seen}: CUDA ve {n} GPU",
    "doctor.alloc_conf.no_value": "a {item} le falta ':value'",
    "doctor.alloc_conf.unknown": "opción desconocida {option}",
    "doctor.alloc_conf.unset": (
        "PYTORCH_CUDA_ALLOC_CONF no está definida: el asignador con caché usa sus valores por defecto"
    ),
    "doctor.alloc_conf.named": "{name}: {problem}",
    "doctor.alloc_conf.async": (
        "(backend cudaMallocAsync: las cifras de memory_allocated no coinciden con las del asignador nativo)"
    ),
    "doctor.alloc_conf.problems": "{seen}; {problems} — torch rechaza las opciones desconocidas al arrancar CUDA",
    "doctor.alloc_conf.fix": "Corrige o quita esa entrada; opciones conocidas: {known}",
    "doctor.alloc_conf.ok": "{seen} (las cifras de VRAM del curso se miden con estos ajustes)",
    "doctor.gpu_memory.none": "no hay memoria de GPU que revisar",
    "doctor.gpu_memory.of": " de {gib} GiB",
    "doctor.gpu_memory.others": "{gpu}: otros {n} proceso(s) ocupan {held} MiB{total}: {who}",
    "doctor.gpu_memory.driver_used": " ({mib} MiB en uso por el driver/la pantalla)",
    "doctor.gpu_memory.no_other": "{gpu}: ningún otro proceso de cómputo{used}",
    "doctor.gpu_memory.in_use": "{gpu}: {mib} MiB en uso{total} (aquí no se pueden listar los procesos)",
    "doctor.gpu_memory.unknown": "{gpu}: uso de memoria desconocido",
    "doctor.gpu_memory.close": (
        "Cierra los otros programas que usan la GPU (nvidia-smi los lista) antes de medir: ocupan VRAM y "
        "ancho de banda."
    ),
    # tutor.ui.screens.exercise
    "ex.confidence": "Confianza ({low}–100 %)",
    "ex.size_gb": "Tamaño que predices (GB, opcional)",
    "ex.lock": "Bloquear predicción",
    "ex.measure": "Medir",
    "ex.reveal": "Revelar",
    "ex.hint": "Pista",
    "ex.hint_n": "Pista {n} de {total}",
    "ex.no_more_hints": "No hay más pistas.",
    "ex.no_hints_pass2": "Segunda pasada: sin pistas ni teoría — reconstruye sin mirar.",
    "ex.locked": "Predicción bloqueada y guardada (intento #{id}). Ahora mide.",
    "ex.lock_first": "Primero bloquea tu predicción.",
    "ex.running": "Midiendo en {device}… (Esc cancela)",
    "ex.cancelling": "Cancelando…",
    "ex.cancel": "Cancelar la medición (Esc)",
    "ex.failed": "No se pudo medir: {reason}. Tu predicción queda guardada; bloquea otra vez para reintentar.",
    "ex.workload": "Carga",
    "ex.device": "Dispositivo",
    "ex.device_gpu": "{name} (CUDA si torch puede usarla; si no, la CPU)",
    "ex.device_cpu_only": "CPU — no se encontró GPU NVIDIA: se mide con torch en la CPU",
    "ex.device_auto": "la GPU si torch puede usarla; si no, la CPU",
    "ex.target": "Objetivo",
    "ex.nothing_measured": "Nada que medir: la verdad sale de la fórmula o de la clave de respuestas.",
    "ex.pass": "pasada {n}",
    "ex.your_guess": "tu predicción",
    "ex.your_workload": "tu carga (medida)",
    "ex.capacity": "capacidad",
    "ex.next_pending": "Siguiente ejercicio pendiente",
    "ex.roofline_first": (
        "Primero se mide el roofline de esta máquina — el ancho de banda (copias de arrays grandes) y los FLOP/s "
        "máximos (una GEMM grande) — con los que se compara tu carga. Sólo la primera vez en este equipo: tarda "
        "alrededor de un minuto y luego queda guardado."
    ),
    "ex.all_done": "No quedan ejercicios pendientes en el curso: todos aprobados.",
    # tutor.ui.screens.help
    "help.title": "Teclas de esta pantalla",
    "help.close": "Esc o ? cierra esta ayuda.",
    "help.palette": "Paleta de comandos: abrir cualquier pantalla, lección o acción",
    "help.everywhere": "(en todas las pantallas)",
    "help.marks": "Qué significa cada marca",
    "marks.help.passed": "superado (nota de {pass_score} o más)",
    "marks.help.partial": "nota parcial: puntúa, pero por debajo del aprobado",
    "marks.help.failed": "intentado, sin nota",
    "marks.help.not_tried": "sin intentar todavía (o un laboratorio sin ejecutar)",
    "marks.help.two": "las dos marcas de un ejercicio: primera pasada y segunda (sin pistas ni teoría)",
    "marks.help.started": "lección empezada, sin terminar",
    "marks.help.unread": "sección sin leer todavía",
    "marks.help.invalid": "un archivo de lección que no se pudo cargar (se muestra su error)",
    "marks.help.reproduced": "la segunda pasada reprodujo la primera",
    # tutor.ui.widgets.lab_plot
    "plot.no_points": "(aún no hay puntos que dibujar)",
    "plot.cannot_draw": "(el gráfico no cabe a este tamaño; las cifras están en la tabla del resultado)",
    "plot.ridge": "cresta {ridge} FLOP/B",
    "plot.caches": "cachés: {caches}",
    "plot.axis.working_set.x": "conjunto de trabajo (bytes)",
    "plot.axis.working_set.y": "GB/s",
    "plot.axis.gemm_sizes.x": "N",
    "plot.axis.gemm_sizes.y": "GFLOP/s",
    "plot.axis.naive_vs_numpy.x": "N",
    "plot.axis.naive_vs_numpy.y": "GFLOP/s",
    "plot.axis.gemm_share.x": "tokens por paso",
    "plot.axis.gemm_share.y": "% del paso en GEMM",
    "plot.axis.roofline_points.x": "intensidad aritmética (FLOP/byte)",
    "plot.axis.roofline_points.y": "GFLOP/s",
    # tutor.ui.widgets.roofline_chart
    "chart.roof.measured": "medido: {bandwidth} GB/s, {flops} GFLOP/s",
    "chart.roof.datasheet": "hoja de datos: {bandwidth} GB/s, {flops} GFLOP/s",
    "chart.zero_flop": "{label} (0 FLOP/B, dibujado en {at})",
    "chart.axis.intensity": "FLOP/byte",
    "chart.axis.gflops": "GFLOP/s",
    # tutor.ui.screens.lab
    "lab.goal": "Objetivo",
    "lab.predict.placeholder_number": "un número en {unit}",
    "lab.predict.placeholder_text": "tu predicción",
    "lab.predict.start": "Fijar predicción y medir",
    "lab.predict.locked": "Tu predicción (fijada): {prediction}",
    "lab.status.waiting": "Esperando tu predicción.",
    "lab.status.starting": "Arrancando el proceso de medida…",
    "lab.status.running": "Midiendo… (Esc cancela)",
    "lab.status.done": "Medido en {device} en {seconds} s. Entrada del cuaderno archivada (N para abrirla).",
    "lab.status.cancelled": "Cancelado. Nada se guardó; tu predicción sigue fijada (ctrl+r para volver a medir).",
    "lab.status.failed": "No se pudo medir: {reason}",
    "lab.notice.cancelled": "Medida cancelada.",
    "lab.notice.filed": "Entrada del cuaderno archivada para {lab}.",
    "lab.result": "Resultado",
    "lab.history": (
        "Última medida ({when}, medida n.º {n}; tu predicción entonces: {prediction}). Predice de nuevo para medir "
        "otra vez."
    ),
    "lab.extrapolated": "extrapolado",
    "lab.measured": "medido",
    "lab.plot.roofline": "roofline medido",
    "lab.plot.prediction": "tu predicción",
    "lab.plot.simulated_level": "{level} (simulada)",
    "lab.series.measured": "medido",
    "lab.series.measured_of": "{series} (medido)",
    "lab.series.extrapolated": "{series} (extrapolado ∝ N³)",
    "notebook.naive.extrapolated": "extrapolado (∝ N³)",
    "notebook.naive.note": "Los float de Python son float64, así que numpy también calcula en float64.",
    "lab.series.kernels": "kernels (medidos)",
    "lab.doctor.running": "Ejecutando tutor doctor…",
    "key.cancel_back": "Cancelar/Volver",
    "key.rerun": "Medir otra vez",
    # tutor.ui.screens.login
    "login.title": "GPU Tutor — clase",
    "login.intro": "Escribe tu nombre de alumno y el token que te dio quien imparte la clase.",
    "login.name": "Nombre",
    "login.token": "Token",
    "login.enter": "Entrar",
    "login.checking": "Comprobando…",
    "login.refused": "Nombre o token incorrectos.",
    "login.unreachable": "El servidor de la clase no responde; inténtalo de nuevo.",
    "login.too_many": "Demasiados intentos fallidos.",
    "login.throttled": (
        "Demasiados intentos fallidos desde tu dirección ({client}): vuelve a intentarlo dentro de {minutes} min."
    ),
    # tutor.ui.screens.notebook
    "notebook.prompt.hypothesis": "Tu hipótesis, antes de mirar el resultado: qué esperabas y por qué.",
    "notebook.prompt.next_question": "La siguiente pregunta que te deja esta medida.",
    "notebook.title": "Cuaderno de laboratorio",
    "notebook.h.hypothesis": "Hipótesis",
    "notebook.h.prediction": "Predicción",
    "notebook.h.setup": "Montaje",
    "notebook.h.procedure": "Procedimiento",
    "notebook.h.result": "Resultado",
    "notebook.h.gap": "La diferencia y su explicación",
    "notebook.h.next_question": "Siguiente pregunta",
    "notebook.w.notebook": "Cuaderno de laboratorio",
    "notebook.w.empty": "_(sin escribir)_",
    "notebook.w.damaged": "dañada, no se pudo leer: {error}",
    "notebook.w.no_entries": "Todavía no hay entradas.",
    "notebook.w.lab": "Laboratorio",
    "notebook.w.lesson": "Lección",
    "notebook.w.run": "ejecución",
    "notebook.w.date": "Fecha",
    "notebook.w.device": "Dispositivo",
    "notebook.w.fingerprint": "Huella del dispositivo",
    "notebook.w.no_device": "No se registró el dispositivo de esta ejecución.",
    "notebook.w.measured_on": "Medido en",
    "notebook.w.telemetry": "Telemetría durante la ejecución",
    "notebook.w.run_what": "Qué se ejecutó",
    "notebook.w.exported": "Exportado",
    "notebook.s.caches": "Caches: {sizes}.",
    "notebook.s.ws_peak": "Pico de {peak} GB/s a {at} ({level}); {last} GB/s a {last_at} ({last_level}).",
    "notebook.s.gemm_best": "Lo mejor: {best} GFLOP/s a N = {n}.",
    "notebook.s.gemm_share": (
        "Con {low} tokens por paso, los GEMM se llevan el {low_pct} % del paso; con {high}, el {high_pct} % "
        "({clock})."
    ),
    "notebook.s.naive_ratio": "A N = {n} (ambos medidos) numpy es {ratio}× más rápido.",
    "notebook.s.no_points": "(sin puntos)",
    "notebook.s.peak_bw": "ancho de banda pico (medido)",
    "notebook.s.peak_mm": "pico de matmul {dtype} (medido)",
    "notebook.s.ridge": "punto de cresta (float32)",
    "notebook.s.cached": "(roofline de la caché de este dispositivo)",
    "notebook.cols.working_set": "conjunto de trabajo|nivel|GB/s|CV",
    "notebook.cols.gemm_sizes": "N|GFLOP/s|tiempo (s)|FLOP/B",
    "notebook.cols.naive_vs_numpy": "N|python (s)|python|numpy (s)|numpy GFLOP/s|cociente",
    "notebook.cols.roofline_points": "kernel|FLOP/B|GFLOP/s|GB/s",
    "notebook.cols.gemm_share": "tokens por paso|GEMM %|optimizador %|elemento a elemento %|softmax %",
    "notebook.setup.cpu_model": "CPU",
    "notebook.setup.physical_cores": "núcleos físicos",
    "notebook.setup.logical_cpus": "CPU lógicas",
    "notebook.setup.torch_threads": "hilos de torch",
    "notebook.setup.max_ghz": "reloj máximo (GHz)",
    "notebook.setup.capability": "compute capability",
    "notebook.setup.sms": "SMs",
    "notebook.setup.total_memory_bytes": "memoria",
    "notebook.setup.driver": "driver",
    "notebook.setup.cuda": "CUDA",
    "notebook.setup.max_sm_clock_mhz": "reloj SM máx. (MHz)",
    "notebook.setup.max_mem_clock_mhz": "reloj memoria máx. (MHz)",
    "notebook.setup.power_limit_w": "límite de potencia (W)",
    "notebook.setup.caches": "cachés",
    "notebook.setup.software": "software",
    "notebook.w.yes": "sí",
    "notebook.w.no": "no",
    "notebook.w.datasheet": "ficha técnica",
    "notebook.w.note": "Nota",
    "notebook.w.notes": "Notas añadidas después del resultado",
    "notebook.w.locked": (
        "Fijada al empezar la ejecución (primero se predice): añade una idea posterior como nota abajo."
    ),
    "notebook.fig.workload": "carga",
    "notebook.fig.achieved_gbs": "GB/s alcanzados",
    "notebook.fig.achieved_gflops": "GFLOP/s alcanzados",
    "notebook.fig.intensity": "intensidad aritmética (FLOP/B)",
    "notebook.fig.median_time": "tiempo mediano (s)",
    "notebook.fig.cv": "CV",
    "notebook.fig.bound": "límite",
    "notebook.bound.memory": "memoria",
    "notebook.bound.compute": "cómputo",
    "notebook.vram.part": "parte",
    "notebook.vram.formula": "fórmula: {part}",
    "notebook.vram.extrapolated": "medido (extrapolado al tamaño completo)",
    "notebook.vram.peak_allocated": "medido: pico asignado",
    "notebook.vram.peak_reserved": "medido: pico reservado",
    "notebook.vram.context": "contexto CUDA ({source})",
    "notebook.vram.total": "total",
    "notebook.vram.fits": "cabe",
    "notebook.vram.does_not_fit": "no cabe",
    "notebook.vram.the_model": "el modelo",
    "notebook.vram.mode.inference": "inferencia",
    "notebook.vram.mode.training": "entrenamiento",
    "notebook.vram.part.weights": "pesos",
    "notebook.vram.part.kv_cache": "caché KV",
    "notebook.vram.part.weights_grads_adam": "pesos, gradientes y estado de Adam",
    "notebook.vram.part.activations": "activaciones",
    "notebook.vram.part.total": "total",
    "notebook.vram.source.measured": "medido: memoria usada del dispositivo − reservada por torch",
    "notebook.vram.source.estimate": "estimado con la fórmula de la lección",
    "notebook.vram.headline": (
        "**{name}**, {mode}, {dtype}, lote {batch}, {seq} tokens: **{total} GB** ({label}) frente a "
        "{capacity} GB → **{verdict}**."
    ),
    "notebook.vram.ratio": "Medido ÷ fórmula: {ratio}×.",
    "notebook.vram.oom": "La ejecución se quedó sin memoria: esa es la prueba de que no cabe.",
    "notebook.doctor.passed": "Doctor: todo en orden.",
    "notebook.doctor.failed": "Doctor: HA FALLADO.",
    "notebook.empty": "El cuaderno está vacío: termina un laboratorio y su entrada se archiva aquí.",
    "notebook.saved": "Entrada guardada.",
    "notebook.note_placeholder": "¿Una idea posterior? Escríbela aquí: Ctrl+S la añade como nota nueva con fecha.",
    "notebook.note_added": "Nota añadida.",
    "notebook.exported": "Cuaderno exportado a {path}",
    "notebook.export_failed": "No se pudo exportar: {reason}",
    "notebook.from_run": "(de la ejecución; no se edita)",
    # tutor.ui.screens.progress
    "progress.brier": "Puntuación de Brier {brier} sobre {predictions} (0 es perfecto; 0,25, decir siempre 50 %)",
    "progress.title": "Progreso",
    "progress.lessons": "Lecciones",
    "progress.calibration": "Calibración",
    "progress.calibration.bucket": (
        "de tus predicciones con una confianza del {low} al {high} %, acertaste {right} de {total}"
    ),
    "progress.cli.c0_passed": "{name}: SUPERADO",
    "progress.cli.c0_not_yet": "{name}: todavía no",
    "progress.cli.cpu_only": "(evidencia sólo de CPU: esto es C0 (CPU), no el checkpoint de GPU)",
    "progress.cli.lesson": "{mark} {passed}/{n} ejercicios, {read}/{total} secciones",
    "progress.cli.passes": " · pasada 1 {pass1}/{n}, pasada 2 {pass2}/{n}, reproducidos {reproduced}/{n}",
    "progress.cli.reproduced": " · reproducido",
    "exercise.cli.legend": (
        "marcas: pasada 1, pasada 2 (✓ aprobada, ~ puntuación parcial, sin aprobar, ✗ intentada sin puntos, "
        "○ sin intentar); la pasada 2 "
        "(--pass 2, sin pistas ni teoría) se abre tras intentar la 1 y cuenta para C0 cuando la reproduce"
    ),
    "exercise.kind.bound": "límite",
    "exercise.kind.number": "número",
    "exercise.kind.fit": "cabe",
    "exercise.kind.diagnose": "diagnóstico",
    "exercise.cli.unknown": "ejercicio desconocido '{id}' (hay: {known})",
    "exercise.cli.did_you_mean": (
        "ejercicio desconocido '{id}'; ¿quisiste decir {suggestions}? (todos: 'tutor exercise list')"
    ),
    "exercise.cli.columns": "pasadas|ejercicio|tipo|lección|título|respuestas",
    "exercise.cli.predict_or_resume": "da --predict VALOR, o --resume N para un intento sin terminar",
    "exercise.cli.budget": "--budget debe estar entre {low} y {high} segundos",
    "exercise.cli.prediction": "Tu predicción",
    "exercise.cli.device": "{workload} sólo se ejecuta en {devices}, no en {device}",
    "exercise.cli.none": "(no hay ejercicios en este curso)",
    "progress.cli.marks": "marcas: pasada 1, pasada 2 (✓ aprobada, ~ puntuación parcial, ✗ sin puntos, ○ sin intentar)",
    "progress.cli.acknowledged": "{n} aviso(s) de recuperación leídos; las copias de seguridad no se tocaron",
    "progress.cli.nothing_to_acknowledge": "no hay avisos que marcar como leídos",
    "progress.cli.exported": "exportado a {file}: {rows}",
    "progress.cli.imported_refuse": "importado de {file}: {rows}",
    "progress.cli.imported_merge": "importado de {file} (junto con lo que había): {rows}",
    "progress.cli.imported_replace": "importado de {file} (en lugar de lo que había): {rows}",
    "progress.cli.unknown_exercise": (
        "ejercicio desconocido '{id}': no está en el curso ni tiene progreso (mira 'tutor exercise list')"
    ),
    "progress.cli.unknown_lesson": (
        "lección desconocida '{id}': no está en el curso ni tiene progreso (mira 'tutor lessons list')"
    ),
    "progress.cli.needs_confirmation": "borrar {what} necesita confirmación: hazlo en una terminal o añade --yes",
    "progress.cli.confirm": "¿Borrar {what} ({summary})? No se puede deshacer. Escribe '{word}' para confirmar:",
    "progress.cli.nothing_deleted": "no se borró nada (escribe {word}, entero, para confirmar)",
    "progress.cli.reset_done": "borrado {what}: {rows}",
    "progress.cli.quarantined": (
        "{n} fila(s) fuera de rango apartadas al actualizar el almacén (tabla quarantined_rows)"
    ),
    "progress.state.locked": "bloqueado",
    "progress.state.graded": "calificado",
    "progress.state.cancelled": "cancelado",
    "progress.state.failed": "fallido",
    "progress.history": "Historial",
    "progress.no_graded": "Aún no hay intentos calificados.",
    "progress.damaged.attempt": (
        "El intento {id} ({label}) no se pudo leer: {where}: {what}. Queda fuera de este informe; el resto está "
        "completo."
    ),
    "progress.damaged.lab_run": (
        "La ejecución {id} del laboratorio {label} no se pudo leer: {where}: {what}. Queda fuera de este informe; el "
        "resto está completo."
    ),
    "progress.confirm": "¿Borrar {what}? ({summary}). No se puede deshacer.",
    "progress.deleted": "Borrado: {what}",
    "progress.yes": "Sí, borrar",
    "progress.no": "Cancelar",
    "progress.lesson_columns": "lección|✓|ejercicios|secciones|pasada 1|pasada 2|reproducidos",
    "progress.exercises": (
        "Ejercicios: pasada 1, pasada 2 (✓ aprobada, ~ puntuación parcial, ✗ sin puntos, ○ sin intentar)"
    ),
    "progress.exercise_columns": "ejercicio|pasadas|pasada 1|pasada 2|reproducido",
    "progress.reproduced": "reproducido",
    "progress.history_columns": "#|cuándo|ejercicio|pasada|estado|veredicto|nota|conf.|pistas",
    "progress.what_lesson": "la lección {id}",
    "progress.what_exercise": "el ejercicio {id}",
    "progress.what_all": "TODO el progreso",
    "progress.cpu": "Evidencia sólo de CPU: esto es C0 (CPU), no el checkpoint de GPU.",
    # decode's bound from the roof that feeds the weights (issue 11 item 3)
    "decode_roof.dram": (
        "Cota de decode desde la DRAM: {weights} de pesos, {multiple}× tu {llc_name} de {llc} ({source}); leídos donde "
        "viven, los pesos llegan a {gbs} (la copia STREAM de tu roofline: {copy})."
    ),
    "decode_roof.partial": (
        "Cota de decode desde el ancho de banda medido sobre los pesos: {weights}, solo {multiple}× tu "
        "{llc_name} de {llc} ({source}), así que una parte puede quedarse en caché; se leen a {gbs} (la copia STREAM "
        "de tu "
        "DRAM: {copy})."
    ),
    "decode_roof.budget": (
        " El presupuesto de memoria de {budget} no deja que el modelo llegue a {target}× la caché: en esta "
        "máquina la cota de DRAM pura no se puede probar."
    ),
    "decode_roof.cache": (
        "Cota de decode desde tu {llc_name}: los {weights} de pesos caben en tu {llc_name} de {llc} ({source}), así "
        "que la "
        "cota usa el ancho de banda medido leyéndolos ahí ({gbs}), no el de tu DRAM ({copy})."
    ),
    "decode_roof.gpu": (
        "Cota de decode desde la memoria de la GPU: {weights} de pesos, leídos a {gbs} (la copia STREAM de tu "
        "roofline: {copy})."
    ),
    "decode_roof.noise": (
        "El decode midió el {fraction} de su cota: por encima, pero dentro de su ruido (±{margin} con un CV por "
        "paso del {cv}); léelo como «en la cota», no como un récord."
    ),
    "decode_roof.remeasured": (
        "El decode midió el {fraction} de su cota, más de lo que su ruido permite, así que el tutor volvió a "
        "medir el ancho de banda que alimenta los pesos ({before} → {after}) y lo juzgó contra el mejor de los "
        "dos: {fraction_after}."
    ),
    "decode_roof.still_above": (
        " Sigue por encima: en una máquina ocupada los tiempos por paso no son fiables; tómalo como una cota, no "
        "como un récord."
    ),
    "setup.decode.dram": (
        "Esta ejecución: el transformer de referencia con {params} parámetros, {weights} de pesos FP32, "
        "{multiple}× tu {llc_name} de {llc} (el último nivel; {source}): su cota es la de la DRAM."
    ),
    "setup.decode.partial": (
        "Esta ejecución: el transformer de referencia con {params} parámetros, {weights} de pesos FP32, solo "
        "{multiple}× tu {llc_name} de {llc} (el último nivel; {source}): una parte puede quedarse en caché, así que la "
        "cota usará el ancho de banda medido leyendo estos pesos."
    ),
    "setup.decode.cache": (
        "Esta ejecución: el transformer de referencia con {params} parámetros, {weights} de pesos FP32, que "
        "caben en tu {llc_name} de {llc} (el último nivel; {source}): la cota usará el ancho de banda de la caché, "
        "medido leyendo estos pesos, no el de tu DRAM."
    ),
    "setup.decode.budget": " El presupuesto de memoria de {budget} no deja llegar a {target}× la caché.",
    # when a roof was measured, and measuring it again on request (issue 11 item 4)
    "roof.within_noise": (
        "Nota del tutor: {fraction} del techo medido, por encima de él menos que el ruido de las dos medidas "
        "(CV de esta ejecución {cv}, del techo {roof_cv}), así que no supera ningún límite del hardware. "
        "Vuelve a medir el techo con la máquina más tranquila (F5) para compararlas con precisión."
    ),
    "roof.within_noise_run": (
        "Nota del tutor: {fraction} del techo medido, por encima de él menos que el ruido de esta ejecución "
        "(CV {cv}), así que no supera ningún límite del hardware. Vuelve a medir el techo con la máquina más "
        "tranquila (F5) para compararlas con precisión."
    ),
    "roof.stamp": "techo medido {age}, carga {load}{cv}",
    "roof.stamp.no_load": "techo medido {age}{cv}",
    "roof.stamp.cv": ", CV {cv}",
    "lab.read.vs": "Predijiste {predicted} {unit}; se midió {measured} {unit} (medido ÷ predicho = {ratio}).",
    "lab.read.no_figure": "Predijiste {predicted} {unit}; esta ejecución no tiene una cifra con la que compararlo.",
    "lab.read.faster_when_bigger": (
        "Rompe la forma esperada: en {where} ({series}) fue ×{by} más rápido que en el tamaño menor {smaller}. Un "
        "tamaño mayor no debería ir más rápido: una de las dos mediciones se vio perturbada (otro programa, un cambio "
        "de reloj), o a tamaños pequeños domina el coste fijo de la llamada."
    ),
    "lab.read.above_roof": (
        "Rompe la forma esperada: en {where}, más allá de la caché de último nivel, movió {gbs} GB/s, por encima de "
        "los {roof} GB/s del techo medido: el techo salió bajo (¿con carga?) o este punto no estaba en DRAM. Vuelve "
        "a medir el techo (F5)."
    ),
    "lab.read.noisy": (
        "Punto ruidoso: en {where} ({series}) sus repeticiones variaron un {cv}; léelo como un intervalo, no como "
        "un número."
    ),
    "lab.read.vs_roof": (
        "En {where}, más allá de la caché de último nivel: {gbs} GB/s; el techo con el que se califican tus "
        "ejercicios (el mismo copy de STREAM, con sus propios arrays) dice {roof} GB/s: ×{ratio} de él."
    ),
    "lab.read.vs_roof_apart": (
        "Difieren más que el ruido (±{margin}): una de las dos se midió con otros programas en marcha, o el techo es "
        "antiguo. Vuelve a medir el techo (F5) con la máquina tranquila."
    ),
    "lab.read.rerun": (
        "Repite el lab (ctrl+r en su pantalla, o tutor lab run) para ver si estos puntos se mantienen; cierra antes "
        "los otros programas."
    ),
    "lab.read.spread": "Mayor dispersión entre los puntos: CV {cv}.",
    "roof.probe.agreed": (
        "comprobado con una sonda antes de calificar (ancho de banda ×{bw}, matmul ×{flops} del techo)"
    ),
    "roof.probe.disagreed": (
        "MEDIDO DE NUEVO: una sonda antes de calificar no coincidió con el techo guardado (ancho de banda ×{bw}, "
        "matmul ×{flops})"
    ),
    "roof.probe.slower": (
        "una sonda antes de calificar encontró la máquina más lenta ahora que su techo (ancho de banda ×{bw}, "
        "matmul ×{flops}): el techo se mantiene, y las cifras de esta ejecución pueden salir bajas"
    ),
    "roof.probe.busy": (
        "una sonda antes de calificar no coincidió (ancho de banda ×{bw}, matmul ×{flops}), pero la máquina está "
        "ocupada: se mantiene"
    ),
    "roof.provisional": "techo PROVISIONAL ({why}): se vuelve a medir cuando la máquina esté tranquila, o ya con F5",
    "roof.provisional.busy": "otros programas usaron {used} de tus {cpus} núcleos mientras se medía",
    "roof.provisional.busy_load": "la máquina estaba ocupada mientras se medía",
    "roof.provisional.loose": "su pico de {what} quedó un {cv} por encima de su repetición típica (no se reprodujo)",
    "roof.provisional.bandwidth": "ancho de banda",
    "roof.provisional.matmul": "matmul",
    "busy.other_programs": (
        "Otros programas usaron {used} de tus {cpus} núcleos mientras esto medía: estas cifras pueden salir bajas. "
        "Ciérralos y vuelve a medir."
    ),
    "busy.steal": (
        "El anfitrión de la máquina virtual se llevó un {steal} del tiempo de CPU mientras esto medía: estas cifras "
        "pueden salir bajas."
    ),
    "busy.simulated": "(carga SIMULADA: TUTOR_SIMULATED_LOAD está puesta; no se leyó de esta máquina)",
    "busy.quiet": "Otros programas usaron {used} de tus {cpus} núcleos mientras esto medía (lo bastante tranquila).",
    "roof.age.now": "hace un momento",
    "roof.age.s": "hace {n} s",
    "roof.age.min": "hace {n} min",
    "roof.age.h": "hace {n} h",
    "roof.age.d": "hace {n} d",
    "roof.remeasuring": "Midiendo de nuevo el roofline… (Esc cancela)",
    "roof.remeasured_request": (
        "Roofline medido de nuevo: {bw}, {flops} en fp32 (antes: {bw0}, {flops0}). Tu próxima medición se juzga "
        "contra él."
    ),
    "roof.remeasure_stopped": "Se detuvo la nueva medición del roofline; se queda el techo anterior.",
    "key.remeasure_roof": "Re-medir roofline",
    "key.attempts": "Intentos",
    "attempts.title": "Tus intentos: {title}",
    "attempts.none": "Aún no hay intentos: predice y luego mide.",
    "attempts.none_here": "Abre un ejercicio (o marca uno en Progreso) para ver sus intentos.",
    "attempts.pass": "pasada {n}",
    "attempts.number": "Intento {n}",
    "attempts.prediction": "predicción: {prediction} (confianza {confidence})",
    "attempts.time": "mediana {ms} ms (CV {cv} %)",
    "attempts.device": "medido en {device}",
    "attempts.truth": "respuesta de esta medida: {truth}",
    "attempts.truth_leaning": "esta medida no lo decide (se inclina por {truth})",
    "attempts.state.locked": "fijada, aún sin medir",
    "attempts.state.failed": "la medida falló",
    "attempts.state.cancelled": "cancelada",
    "decode_roof.gap.dram": (
        "Dónde viven los pesos: los {weights} del modelo mayor son {multiple}× tu {llc_name} de {llc}, así que "
        "vienen de la DRAM; leídos con los propios GEMV del decode llegan a {gbs}, el techo frente al que se "
        "reparte la distancia (tu copia STREAM, para comparar: {copy})."
    ),
    "decode_roof.gap.partial": (
        "Dónde viven los pesos: los {weights} del modelo mayor son solo {multiple}× tu {llc_name} de {llc}, así "
        "que una parte puede quedarse en caché; leídos con los propios GEMV del decode llegan a {gbs}, el techo "
        "frente al que se reparte la distancia (la copia STREAM de tu DRAM: {copy})."
    ),
    "decode_roof.gap.cache": (
        "Dónde viven los pesos: los {weights} del modelo mayor caben en tu {llc_name} de {llc}, así que el decode "
        "los lee de la caché, a {gbs} con sus propios GEMV: ese ancho de banda de caché es el techo frente al que se "
        "reparte la distancia, no la copia STREAM de tu DRAM ({copy})."
    ),
    "decode_roof.gap.gpu": (
        "Dónde viven los pesos: los {weights} del modelo mayor, en la memoria de la GPU, leídos a {gbs} con los "
        "propios GEMV del decode, el techo frente al que se reparte la distancia (tu copia STREAM: {copy})."
    ),
    "roof.points_remeasured": (
        "Nota del tutor: {points} quedaron por encima del techo guardado (hasta el {fraction}), así que ese techo "
        "era dudoso (medido con la máquina ocupada, o la máquina cambió). El tutor volvió a medir tu roofline; el "
        "gráfico y estas cifras muestran el nuevo."
    ),
    # tutor.grading.kinds
    "grade.high": "alta",
    "grade.low": "baja",
    "grade.number.within": "Dentro del {tolerance}: dijiste {said}, la verdad es {truth}.",
    "grade.number.close": "Cerca, pero {direction} por {off}: dijiste {said}, la verdad es {truth}.",
    "grade.number.some": (
        "Lejos: {direction} por {off}, aunque dentro del margen más ancho que este ejercicio aún puntúa "
        "(hasta {band}): dijiste {said}, la verdad es {truth}."
    ),
    "grade.number.off": "Te alejaste {off} (demasiado {direction}): dijiste {said}, la verdad es {truth}.",
    "grade.number.within_spread": (
        "Dentro de lo que esta medida puede distinguir: dijiste {said}, la verdad es {truth}."
    ),
    "grade.number.spread": (
        "La propia medida varió ±{spread} (σ entre sus repeticiones), dentro de la tolerancia de este "
        "ejercicio."
    ),
    "grade.number.spread_band": (
        "La propia medida varió ±{spread} (σ entre sus repeticiones), más que la tolerancia de este "
        "ejercicio: todo lo que va de {low} a {high} (verdad ± 2σ) cuenta como el valor medido. Una máquina "
        "más tranquila da un intervalo más estrecho."
    ),
    "grade.bound.memory": "limitado por memoria",
    "grade.bound.compute": "limitado por cómputo",
    "grade.bound.inconclusive": (
        "No concluyente en esta ejecución ({why}; tiende a {real}). No cuenta: ni tu nota, ni tu calibración, ni la "
        "segunda pasada la ven. Vuelve a medirlo con la máquina tranquila."
    ),
    "grade.bound.why.near_ridge": (
        "su intensidad está demasiado cerca de tu cresta medida, dada la dispersión de la cresta"
    ),
    "grade.bound.why.rates_disagree": "el ritmo que alcanzó apunta al otro techo que su intensidad",
    "grade.bound.why.roof_provisional": "el techo con el que se juzgó es provisional",
    "grade.bound.why.disturbed": "otros programas ocuparon parte de la máquina mientras medía",
    "grade.bound.right": "Correcto: está {real}.",
    "grade.bound.wrong": "Esta vez no: dijiste {said}, la medición dice {real}.",
    "grade.fit.fits": "cabe",
    "grade.fit.does_not_fit": "no cabe",
    "grade.fit.right": "Correcto: ocupa {size}, así que {fits} en {capacity}.",
    "grade.fit.wrong": "Esta vez no: ocupa {size}, así que {fits} en {capacity}.",
    "grade.fit.your_size": "Tu tamaño: {size}.",
    "grade.diagnose.right": "Causa correcta.",
    "grade.diagnose.wrong": "No es esa: la causa es «{cause}».",
    # tutor.telemetry.format
    "window.busy_mean": "GPU activa media {value}",
    "window.cpu_mean": "CPU media {value}",
    "window.peak": ", pico {value}",
    "window.vram": "VRAM pico {peak} GiB",
    "window.vram_of": "VRAM pico {peak} de {total} GiB",
    "window.ram": "RAM pico {peak} GiB",
    "window.ram_of": "RAM pico {peak} de {total} GiB",
    "window.power": "potencia media {value}",
    # tutor.ui.widgets.telemetry_panel
    "tel.clocks": "temperatura {temp} · SM {sm}/{sm_max} MHz · memoria {mem}/{mem_max} MHz",
    # tutor.telemetry
    "text.verbatim": "{text}",
    "tel.status.host_ok": "CPU y RAM de esta máquina (psutil)",
    "tel.status.host_fallback": "Sin GPU NVIDIA ({reason}) — se muestran la CPU y la RAM",
    "tel.status.with_host": "{status}; CPU y RAM del equipo",
    "tel.status.nvml_ok.one": "NVIDIA NVML — {n} GPU, driver {driver}",
    "tel.status.nvml_ok.other": "NVIDIA NVML — {n} GPU, driver {driver}",
    "tel.status.gpu_lost": "{names} perdida (NVML: GPU is lost) — necesita un reset o reiniciar el equipo",
    "tel.status.replay": "Replay de {file} ({recorded}) — cifras grabadas, no de esta máquina",
    "tel.status.unknown_backend": "backend desconocido",
    "tel.status.timeout": "el driver de telemetría no respondió en {seconds} s",
    "tel.status.failed": "la telemetría falló: {error}",
    "tel.status.not_probed": "aún sin sondear",
    "tel.spec.unknown": "fuente de telemetría desconocida «{spec}»: se esperaba auto, nvml, host o replay:FILE",
    "tel.spec.replay_needs_file": "replay necesita un archivo de traza: replay:FILE",
    "trace.number": "se esperaba un número o null, y hay {got}",
    "trace.numbers": "se esperaba una lista de números, y hay {got}",
    "trace.words": "se esperaba una lista de palabras, y hay {got}",
    "trace.processes": "se esperaba una lista de [pid, nombre, bytes], y hay {got}",
    "trace.process": "se esperaba [pid, nombre, bytes], y hay {got}",
    "trace.value": "valor de métrica inesperado {got}",
    "trace.not_found": "no se encuentra la traza a reproducir",
    "trace.too_many_lines": "más de {limit} líneas (el límite de una traza)",
    "trace.not_object": "se esperaba un objeto JSON",
    "trace.device_object": "cada dispositivo debe ser un objeto",
    "trace.header_not_first": "una cabecera solo puede ser la primera línea",
    "trace.version": "versión de traza no admitida {version}",
    "trace.t": "se esperaban segundos desde la época (antes de 2100), y hay {got}",
    "trace.device": "se esperaba un id de dispositivo, y hay {got}",
    "trace.metrics_object": "debe ser un objeto",
    "trace.missing": "falta el campo {field}",
    "trace.no_samples": "la traza no tiene muestras",
    "trace.bad_header": "cabecera no válida: {what}",
    "tel.status.off": "Telemetría desactivada: {error}",
    "tel.status.nvml_failed": "NVML no pudo arrancar ({error})",
    "tel.note.recorded": "Grabado en {recorded}: {message}",
    "tel.reason.library_not_found": "no se encontró la biblioteca NVML",
    "tel.reason.driver_not_loaded": "el driver de NVIDIA no está cargado",
    "tel.reason.driver_library_mismatch": "el driver de NVIDIA y su biblioteca son de versiones distintas",
    "tel.reason.no_permission": "sin permiso para usar el driver de NVIDIA",
    "tel.reason.os_blocked": "el sistema operativo bloqueó NVML",
    "tel.reason.not_installed": "nvidia-ml-py no está instalado",
    "tel.reason.no_devices": "NVML no encontró ninguna GPU utilizable",
    "tel.note.library_not_found": (
        "libnvidia-ml.so.1 no está en este sistema: no hay ningún driver de NVIDIA instalado, o este contenedor se "
        "arrancó sin acceso a la GPU (docker run --gpus all)."
    ),
    "tel.note.driver_not_loaded": (
        "La biblioteca del driver está instalada, pero su módulo del kernel no está cargado: reinicia, o revisa `lsmod "
        "| grep nvidia` y `dmesg` (Secure Boot puede bloquear un módulo sin firmar)."
    ),
    "tel.note.driver_library_mismatch": (
        "La biblioteca de espacio de usuario y el módulo del kernel son de versiones distintas, normalmente tras "
        "actualizar el driver sin reiniciar: reinicia."
    ),
    "tel.note.no_permission": (
        "Este usuario no puede abrir /dev/nvidia*: revisa el grupo de esos ficheros de dispositivo (a menudo 'video' o "
        "'render'), o pasa la GPU al contenedor."
    ),
    "tel.note.os_blocked": "El sistema operativo rechazó la petición (un sandbox o una política de seguridad).",
    "tel.note.not_installed": "pip install nvidia-ml-py para leer las GPU NVIDIA.",
    "tel.note.no_devices": "El driver está cargado, pero no lista ninguna GPU que este usuario pueda usar.",
    "tel.note.wsl": (
        "WSL2: NVML viene del driver de Windows a través de /usr/lib/wsl/lib. No se informa de la memoria de GPU por "
        "proceso, y los motivos de reloj limitado, el caudal PCIe y algunos relojes pueden salir N/D; nvidia-smi en "
        "Windows sí los muestra."
    ),
    "tel.note.mig": (
        "MIG está activado en {name}: en este modo NVML no da la utilización de la GPU entera; la memoria y la "
        "potencia son de toda la tarjeta."
    ),
    "tel.throttle.idle": "inactiva",
    "tel.throttle.application_clocks_setting": "ajuste de relojes de aplicación",
    "tel.throttle.software_power_cap": "límite de potencia por software",
    "tel.throttle.hardware_slowdown": "ralentización por hardware",
    "tel.throttle.sync_boost": "boost sincronizado",
    "tel.throttle.software_thermal_slowdown": "ralentización térmica por software",
    "tel.throttle.hardware_thermal_slowdown": "ralentización térmica por hardware",
    "tel.throttle.power_brake_external": "freno de potencia (externo)",
    "tel.throttle.display_clock_setting": "ajuste del reloj de pantalla",
    "tel.throttle.other": "otro ({bits})",
    # files and course problems (untrusted.py, content/)
    "file.cannot_open": "no se puede abrir ({reason})",
    "file.link_loop": "forma parte de un bucle de enlaces; no se leyó",
    "file.link_outside": "es un enlace que sale de la carpeta del curso; no se leyó",
    "file.missing": "no existe ese archivo",
    "file.is_folder": "es una carpeta, no un archivo",
    "file.not_regular_kind": "es {kind}, no un archivo normal; no se leyó",
    "file.not_written_kind": "es {kind}, no un archivo normal; no se escribió nada en él",
    "file.kind.fifo": "una FIFO",
    "file.kind.device": "un dispositivo",
    "file.kind.socket": "un socket",
    "file.kind.other": "otra cosa",
    "file.over_limit": "ocupa {size} bytes, más que el límite de {limit}",
    "file.not_regular": "no es un archivo normal; no se leyó",
    "file.cannot_read": "no se puede leer ({reason})",
    "file.larger_than": "supera el límite de {limit} bytes",
    "file.not_utf8": "no es texto UTF-8 (byte {byte})",
    "json.too_deep": "JSON anidado a más de {depth} niveles",
    "json.invalid_at": "JSON no válido ({reason})",
    "json.not_finite": "{token} no es un número finito",
    "json.invalid": "JSON no válido ({reason})",
    "json.reason.value": "aquí se esperaba un valor",
    "json.reason.key": "aquí se esperaba una clave entre comillas dobles",
    "json.reason.colon": "aquí se esperaba ':'",
    "json.reason.comma": "aquí se esperaba ','",
    "json.reason.extra": "hay más texto después del valor JSON",
    "json.reason.unterminated": "una cadena que nunca se cierra",
    "json.reason.control": "un carácter de control dentro de una cadena",
    "json.reason.escape": "un escape (\\…) que no es válido dentro de una cadena",
    "json.lone_surrogate": "{escape} es media pareja UTF-16, no un carácter",
    "json.at": "{where}: {what}",
    "json.too_many_items": "más de {limit} elementos (el límite)",
    "json.string_too_long": "texto de más de {limit} caracteres (el límite)",
    "problem.at": "{where}: {what}",
    "problem.line": "{path}:{line}:{col}: {severity}: {what}",
    "problem.severity.error": "error",
    "problem.severity.warning": "aviso",
    "problem.required": "falta un campo obligatorio",
    "problem.unknown_field": "campo desconocido (no es parte del formato; revisa cómo se escribe)",
    "problem.top_mapping": "se esperaba un mapa de campos al principio del archivo",
    "problem.format_version": "format_version: este tutor lee el formato 1 y el archivo dice {found}",
    "problem.missing_translation": "falta el texto en {language}",
    "problem.control_char": "carácter de control {name}; el texto del curso debe ser texto plano",
    "problem.file_too_large": "el archivo supera los {kb} kB ({detail})",
    "problem.binary": "archivo binario (contiene bytes NUL); se esperaba texto YAML",
    "problem.not_utf8": "no es texto UTF-8 (¿un archivo binario?)",
    "problem.empty": "archivo vacío",
    "problem.empty_comments": "archivo vacío (solo comentarios)",
    "problem.yaml_too_deep": "el YAML está anidado a demasiada profundidad",
    "problem.yaml_tag": "YAML: la etiqueta {tag} no está permitida: los archivos del curso son datos, no código",
    "problem.yaml_tag_not_data": (
        "YAML: la etiqueta {tag} no está permitida: los archivos del curso son datos, no código (texto, números, "
        "true/false, null, listas y mapas)"
    ),
    "problem.yaml_not_allowed": "YAML: {what} no está permitido en texto YAML",
    "problem.yaml": "YAML: {what}",
    "problem.yaml_alias": "YAML: en los archivos del curso no se permiten anclas ni alias (*nombre)",
    "problem.yaml_too_many_values": "YAML: más de {limit} valores en un solo archivo",
    "problem.yaml_nested_over": "YAML: anidado a más de {limit} niveles",
    "problem.name_control": "el nombre contiene un carácter de control; no se leyó",
    "problem.folder_unreadable": "no se puede leer la carpeta ({reason})",
    "problem.too_many_entries": "más de {limit} entradas en las carpetas del curso; el resto no se leyó",
    "problem.too_deep_folders": "carpetas anidadas a más de {limit} niveles; no se leyó",
    "problem.too_many_files": "más de {limit} archivos de curso; este y el resto no se leyeron",
    "problem.not_found": "no existe ese archivo o carpeta",
    "problem.course_not_found": "no se encontró la carpeta del curso",
    "problem.pydantic.string_type": "se esperaba texto",
    "problem.pydantic.int_type": "se esperaba un número entero",
    "problem.pydantic.float_type": "se esperaba un número",
    "problem.pydantic.bool_type": "se esperaba true o false",
    "problem.pydantic.list_type": "se esperaba una lista",
    "problem.pydantic.dict_type": "se esperaba un mapa",
    "problem.pydantic.literal_error": "se esperaba {expected}",
    "problem.pydantic.too_short": "demasiado corto: se esperaban al menos {min}",
    "problem.pydantic.too_long": "más de {max} elementos (el límite)",
    "problem.pydantic.greater_than": "debe ser mayor que {limit}",
    "problem.pydantic.greater_than_equal": "debe ser al menos {limit}",
    "problem.pydantic.less_than": "debe ser menor que {limit}",
    "problem.pydantic.less_than_equal": "debe ser como mucho {limit}",
    "problem.pydantic.identifier": (
        "no es un id válido: de 1 a 64 caracteres entre a-z, 0-9 y '-', empezando por una letra o una cifra"
    ),
    "problem.pydantic.choice_id": (
        "no es un id de opción válido: de 1 a 64 caracteres entre a-z, 0-9, '-' y '_', empezando por una letra o "
        "una cifra"
    ),
    "problem.pydantic.registry_name": (
        "no es un nombre del registro válido: de 1 a 64 caracteres entre a-z, 0-9 y '_', empezando por una letra o "
        "una cifra"
    ),
    "problem.pydantic.string_pattern_mismatch": "no sigue el patrón {pattern}",
    "problem.pydantic.string_too_long": "demasiado largo: como mucho {max} caracteres",
    "problem.pydantic.string_too_short": "demasiado corto: al menos {min} caracteres",
    "problem.pydantic.int_parsing": "se esperaba un número entero",
    "problem.pydantic.int_from_float": "se esperaba un número entero, no una fracción",
    "problem.pydantic.float_parsing": "se esperaba un número",
    "problem.pydantic.bool_parsing": "se esperaba true o false",
    "problem.pydantic.finite_number": "se esperaba un número finito",
    "problem.pydantic.tuple_type": "se esperaba una lista",
    "problem.pydantic.model_type": "se esperaba un mapa",
    "problem.pydantic.model_attributes_type": "se esperaba un mapa",
    "problem.pydantic.other": "valor no aceptado ({kind})",
    "problem.key_not_text": "la clave {name} no es texto (entre comillas, si es un nombre)",
    "problem.second_course_file": "un segundo course.yaml",
    "problem.lesson_id_taken": "el id de lección {id} ya está definido en {path}",
    "problem.exercise_id_taken": "el id de ejercicio {id} ya está definido en {path}",
    "problem.lesson_id_bundled": ("el id de lección {id} es del curso incluido; un paquete no puede redefinirlo "
                                  "(su progreso contaría como el de la lección incluida): dale un id propio"),
    "problem.exercise_id_bundled": ("el id de ejercicio {id} es del curso incluido; un paquete no puede "
                                    "redefinirlo (sus intentos contarían como los del ejercicio incluido, también "
                                    "para C0): dale un id propio"),
    "problem.exercise_undefined": "ningún archivo define el ejercicio {id}",
    "problem.exercise_elsewhere": "el ejercicio {id} pertenece a la lección {lesson}",
    "problem.no_such_lesson": "no hay ninguna lección con id {id}",
    "problem.exercise_unlisted": "el ejercicio {id} no aparece en la lección {lesson}",
    "problem.needs_measure": "{path} necesita una medición, y el ejercicio no tiene 'measure'",
    "problem.measured_empty": "'measured:' necesita una cifra detrás, p. ej. measured:achieved_gbs",
    "problem.side_asserted": (
        "afirma de qué lado está la máquina del alumno antes de medirla ({sentence}); la verdad se mide, así que "
        "ponlo en una variante explanation_when"
    ),
    "problem.hint_side_asserted": "una pista afirma de antemano el lado medido ({sentence})",
    "rule.text_language": "necesita texto en al menos un idioma (es o en)",
    "rule.op_needs_name": "op {op} necesita un nombre (qué {kind} ejecutar)",
    "rule.dram_needs_workload": "'dram' dimensiona los arrays de un workload; necesita op: workload",
    "rule.id_twice": "el id {id} aparece dos veces",
    "rule.exercise_twice": "el ejercicio {id} aparece dos veces",
    "rule.formula_needed": "una verdad de fórmula necesita 'formula' (el nombre de una fórmula que enseña la lección)",
    "rule.tolerances": "las tolerancias deben crecer: full ≤ most ≤ some",
    "rule.condition_needs": "una condición necesita 'bound' o 'metric'",
    "rule.metric_needs_limit": "una condición 'metric' necesita 'above' y/o 'below'",
    "rule.limit_needs_metric": "'above'/'below' necesitan un 'metric' con el que comparar",
    "rule.above_below": "'above' debe ser menor que 'below'",
    "rule.choices_unique": "los ids de las opciones deben ser únicos",
    "rule.diagnose_two": "un ejercicio diagnose necesita al menos dos opciones",
    "rule.diagnose_answer": "un ejercicio diagnose necesita 'answer' (uno de los ids de sus opciones)",
    "rule.answer_not_choice": "la respuesta {answer} no es ninguna de las opciones {ids}",
    "rule.number_unit": "un ejercicio number necesita 'unit'",
    "rule.number_truth": "un ejercicio number necesita 'truth' (medición o fórmula)",
    "rule.bound_measure": "un ejercicio bound necesita 'measure' (el workload cuyo lado del roofline se pregunta)",
    "rule.fit_capacity": "un ejercicio fit necesita 'capacity_gb'",
    "rule.fit_truth": "un ejercicio fit necesita 'truth' (cuántos GB ocupa)",
    "rule.measured_truth": "una verdad medida necesita 'measure' (qué ejecutar)",
    "rule.range_order": "range debe ser [bajo, alto] con bajo < alto",
    "rule.bound_variant": "una variante 'when: {bound: …}' necesita un ejercicio bound cuyo lado se mida",
    "problem.control_in_text": (
        "carácter de control {name} en el texto; el texto del curso debe ser plano (sin secuencias de escape)"
    ),
    "problem.control_in_key": (
        "carácter de control {name} en una clave; el texto del curso debe ser plano (sin secuencias de "
        "escape)"
    ),
    "problem.int_range": "{value} está fuera de rango (los enteros deben caber en 64 bits)",
    "problem.not_finite": "{value} no es un número finito",
    "problem.character": "el carácter {name}",
    "problem.a_character": "un carácter",
    "problem.course_too_big": "el curso tiene más de {mib} MiB de texto; este archivo no se leyó",
    "problem.internal": "error interno al cargar: {reason}",
    "problem.given_away": (
        "la respuesta ({answer}) aparece en la teoría de la lección {lesson}, que se lee justo antes de este "
        "ejercicio: mueve el ejemplo resuelto después del ejercicio o usa otros números"
    ),
    "lessons.summary": "{lessons}, {exercises}, {verdict}",
    "lessons.no_problems": "ningún problema",
    "count.problem.one": "{n} problema",
    "count.problem.other": "{n} problemas",
    "count.lesson.one": "{n} lección",
    "count.lesson.other": "{n} lecciones",
    "count.exercise.one": "{n} ejercicio",
    "count.exercise.other": "{n} ejercicios",
    "lessons.list_counts": "{sections}, {labs}, {exercises}",
    "count.section.one": "{n} sección",
    "count.section.other": "{n} secciones",
    "count.lab.one": "{n} laboratorio",
    "count.lab.other": "{n} laboratorios",
    # C0 checklist (progress/c0.py)
    "c0.joined": "{first}; {second}",
    "c0.stack.title": (
        "El stack es reproducible (un lock con lo que lo reconstruye, comprobado por un tutor doctor "
        "posterior)"
    ),
    "c0.stack.no_lock": "aún no hay lock — ejecuta `tutor doctor --lock`",
    "c0.stack.no_rebuild": (
        "el lock de doctor #{run} ({at}) no guarda nada con que reconstruirlo — vuelve a ejecutar `tutor "
        "doctor --lock`"
    ),
    "c0.stack.head": (
        "lock #{run} escrito hace {age} ({at}), fija {pins}, se reconstruye con {requirements} o {dockerfile}"
    ),
    "c0.stack.unchecked": "{head}; ningún `tutor doctor` posterior lo ha comprobado todavía",
    "c0.stack.matches": "doctor #{run} ({at}, otro proceso posterior) comprobó el entorno: coincide",
    "c0.stack.differs": "doctor #{run} ({at}): el entorno ya no coincide con el lock{differences}",
    "c0.stack.problems": "doctor #{run} ({at}) coincide con el lock pero encontró problemas",
    "count.difference.one": "{n} diferencia",
    "count.difference.other": "{n} diferencias",
    "c0.bench.title": (
        "Dos ejecuciones de tutor bench en este dispositivo coinciden (la segunda pasada reproducible; cada "
        "cifra dentro de máx(5 %, 2·√(CV₁² + CV₂²)), como mucho 15 %; {cv})"
    ),
    "c0.bench.none": "aún no hay tutor bench",
    "c0.bench.one": "una sola ejecución de bench (#{run}, {at}) en este dispositivo; ejecuta `tutor bench` otra vez",
    "c0.bench.nothing_to_compare": "bench #{a} y #{b} no tienen cifras que comparar",
    "c0.bench.disturbed": (
        "{pair} No cuenta: otros programas ocuparon parte de la máquina durante la ejecución #{runs}, así que sus "
        "cifras pueden salir bajas; repite tutor bench con la máquina tranquila"
    ),
    "c0.bench.pair": (
        "bench #{a} ({at_a}) y #{b} ({at_b}) {verdict}: la cifra más lejos de su margen es {figure}, a "
        "{difference} (margen ±{allowed})"
    ),
    "c0.bench.pair_shift": "{pair}. {shift}",
    "c0.bench.agree": "coinciden",
    "c0.bench.disagree": "no coinciden",
    "c0.bench.still_holds": "{holding}; sigue valiendo — el par posterior es más ruidoso: {later}",
    "c0.pass": "pasada {n} #{attempt} {score}",
    "c0.ex.not_attempted": "{ex} {marks}: sin intentar",
    "c0.ex.reproduced": "{ex} {marks}: reproducido ({p1}, {p2})",
    "c0.ex.no_pass2": "{ex} {marks}: {p1}; falta la pasada 2 (sin pistas ni teoría)",
    "c0.ex.pass2_failed": "{ex} {marks}: {p2} no aprobada",
    "c0.ex.not_reproduced": "{ex} {marks}: {p2} aprobada pero no reproduce la pasada 1 (no aprobada antes)",
    "c0.gap.title": (
        "Explicaste la distancia al límite teórico: sus partes predichas y medidas (L4) y tu propia "
        "explicación en la ficha del Lab Notebook de la L4"
    ),
    "c0.gap.entry": "la ficha #{entry} explica la distancia con tus palabras ({words} palabras)",
    "c0.gap.no_entry": (
        "ninguna ficha del Lab Notebook de la L4 explica aún la distancia (su parte «diferencia», al menos "
        "{words} palabras tuyas, escritas en la pantalla del Lab Notebook, N en la TUI, o con 'tutor notebook "
        "write ID --gap TEXTO')"
    ),
    "c0.level.title": (
        "Todos los ejercicios del Nivel 0 aprobados en la segunda pasada (sin pistas ni teoría), "
        "reproduciendo la primera"
    ),
    "c0.level.none": "este curso no tiene ejercicios del Nivel 0",
    "c0.level.count": "{done} de {total} reproducidos en la pasada 2",
    "c0.level.todo": "{count}; faltan: {todo}{more}",
    "c0.level.more": "; y {n} más",
    # bench warnings (measure/bench.py, roofline.py)
    "bench.warn.above_datasheet": (
        "el ancho de banda medido, {measured} GB/s, supera el de la hoja de datos, {datasheet}"
    ),
    "bench.warn.above_limit": "el {dtype} medido, {measured} GFLOP/s, supera el límite físico de {limit}",
    "bench.warn.disturbed": (
        "otros programas usaron {used} de tus {cpus} núcleos durante esta ejecución: sus cifras pueden salir bajas y "
        "su techo es provisional; repítela con la máquina tranquila antes de comparar"
    ),
    "bench.warn.busy": (
        "la máquina estaba ocupada (carga media {load} en {cpus} CPU): las cifras pueden salir bajas y "
        "ruidosas, y dos pasadas pueden no coincidir"
    ),
    "bench.warn.quick_cache": (
        "modo rápido: los arrays de STREAM de {arrays} MiB son menos de 4× la caché de último nivel de {llc} "
        "MiB, así que el ancho de banda pico puede ser en parte el de la caché y no el de la DRAM; `tutor "
        "bench --full` dimensiona los arrays para la DRAM"
    ),
}
