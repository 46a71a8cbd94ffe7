from __future__ import annotations

import subprocess
import sys


def test_prefetch_imports_pyarrow_in_the_background() -> None:
    code = (
        "import sys\n"
        "from chronoeval.engine.warm import prefetch\n"
        "assert 'pyarrow.parquet' not in sys.modules\n"
        "t = prefetch()\n"
        "assert t is not None\n"
        "t.join(120)\n"
        "assert 'pyarrow.parquet' in sys.modules\n"
        "assert prefetch() is None\n"
        "assert prefetch(('no_such_module_xyz',)) is not None\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=180)
