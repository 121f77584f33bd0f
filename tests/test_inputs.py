"""Reading users' files: special files refused by type, sizes bounded, encodings named."""

from __future__ import annotations

import codecs
import os
from pathlib import Path

import pytest

from gouji_rules.inputs import InputFileError, read_bytes, read_text
from gouji_rules.outputs import OutputPathError, check_outputs, spreadsheet_cell


def test_fifo_is_refused_without_hanging(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(InputFileError, match="pipe"):
        read_bytes(fifo)


def test_device_and_folder_are_refused(tmp_path: Path) -> None:
    with pytest.raises(InputFileError, match="device"):
        read_bytes("/dev/zero")
    with pytest.raises(InputFileError, match="folder"):
        read_bytes(tmp_path)


def test_size_is_bounded_before_reading(tmp_path: Path) -> None:
    big = tmp_path / "big"
    big.write_bytes(b"x" * 101)
    with pytest.raises(InputFileError, match="at most 100 bytes"):
        read_bytes(big, limit=100)
    assert read_bytes(big, limit=101) == b"x" * 101


def test_utf8_with_bom_is_read(tmp_path: Path) -> None:
    f = tmp_path / "a.csv"
    f.write_bytes(codecs.BOM_UTF8 + "名字\n张三\n".encode())
    assert read_text(f) == "名字\n张三\n"


@pytest.mark.parametrize(("codec", "hint"), [("gbk", "GBK"), ("utf-16", "UTF-16")])
def test_excel_encodings_are_named_with_the_fix(tmp_path: Path, codec: str, hint: str) -> None:
    f = tmp_path / "a.csv"
    f.write_bytes("名字,队\n张三,1\n".encode(codec))
    with pytest.raises(InputFileError, match=hint) as e:
        read_text(f)
    assert "UTF-8" in str(e.value) and "--encoding" in str(e.value)
    assert read_text(f, encoding=codec) == "名字,队\n张三,1\n"


def test_output_may_not_be_an_input(tmp_path: Path) -> None:
    f = tmp_path / "event.sqlite"
    f.write_bytes(b"")
    with pytest.raises(OutputPathError, match="also an input"):
        check_outputs([tmp_path / "." / "event.sqlite"], [f])
    with pytest.raises(OutputPathError, match="twice"):
        check_outputs([tmp_path / "x.csv", tmp_path / "x.csv"])


def test_csv_cells_never_run_as_formulas() -> None:
    for text in ("=cmd|' /C calc'!A0", "+1", "-1+1", "@SUM(A1)", "\tx", "\rx"):
        assert spreadsheet_cell(text) == "'" + text
    assert spreadsheet_cell(-2) == -2 and spreadsheet_cell("李四") == "李四"
