"""Executes one notebook with nbclient (Jupyter's headless runner) for scripts/notebooks.ts.

  python3 scripts/run-notebook.py NOTEBOOK OUT TIMEOUT

Runs every cell with the notebook's kernel (tslab, registered through JUPYTER_PATH) in the
notebook's folder and writes the executed notebook to OUT. A failed cell prints one line,
"cell N: <the error line the kernel wrote>", and exits 1 without writing OUT: tslab reports a
cell's error only as stderr text (its error reply names no exception), so the line is read from
there. Exit 3 when nbclient is missing from this Python.
"""

import os
import re
import sys

try:
    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError
except ImportError as e:
    print(f"nbclient is not installed in {sys.executable} ({e})", file=sys.stderr)
    sys.exit(3)

# The line that names the error: "Error: ...", "TypeError [CODE]: ...", or a TypeScript diagnostic "1:31 - ...".
ERROR_LINE = re.compile(r"^(\w*(Error|Exception)\b.*:|\d+:\d+ - )")


def error_line(cell):
    text = "".join(o.get("text", "") for o in cell.get("outputs", []) if o.get("name") == "stderr")
    lines = [l.strip() for l in text.splitlines() if l.strip()]
    return next((l for l in lines if ERROR_LINE.match(l)), lines[-1] if lines else "failed")


def main():
    path, out, timeout = sys.argv[1], sys.argv[2], int(sys.argv[3])
    nb = nbformat.read(path, as_version=4)
    started = {"index": -1}
    client = NotebookClient(
        nb,
        timeout=timeout,
        resources={"metadata": {"path": os.path.dirname(os.path.abspath(path))}},
        on_cell_start=lambda cell, cell_index: started.update(index=cell_index),
    )
    try:
        client.execute()
    except CellExecutionError:
        cell = nb.cells[started["index"]]
        print(f"cell {started['index'] + 1}: {error_line(cell)[:300]}", file=sys.stderr)
        sys.exit(1)
    except Exception as e:  # the kernel did not start, a timeout, …: one line, not a traceback
        print(f"{type(e).__name__}: {(str(e).strip().splitlines() or ['failed'])[0][:300]}", file=sys.stderr)
        sys.exit(1)
    nbformat.write(nb, out)


if __name__ == "__main__":
    main()
