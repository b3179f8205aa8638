from tutor.cli import main

if __name__ == "__main__":  # not when multiprocessing (spawn) re-imports the main module in the worker
    raise SystemExit(main())
