"""service.config: every setting read in one place, its type checked, and the README's table the same list."""

import re
from dataclasses import fields
from pathlib import Path

import pytest

from service.config import BadSetting, Settings

README = Path(__file__).resolve().parents[2] / "README.md"
CONFIG = Path(__file__).resolve().parents[2] / "service" / "config.py"


def test_unset_variables_give_the_defaults_and_set_ones_their_values():
    assert Settings.read({}) == Settings()
    read = Settings.read({"PORT": "9000", "REFEREE_API_KEY": " a, b ,", "REFEREE_PUBLIC_URL": "https://r.example/",
                          "REFEREE_HEAD_SECONDS": "2.5", "REFEREE_WORKERS": ""})
    assert (read.port, read.api_keys, read.public_url, read.head_seconds, read.workers) == \
        (9000, ("a", "b"), "https://r.example", 2.5, 2)


@pytest.mark.parametrize("name, value", [("REFEREE_WORKERS", "two"), ("PORT", "80.5"), ("REFEREE_BODY_SECONDS", "soon")])
def test_a_value_of_the_wrong_type_is_refused_with_the_variables_name(name, value):
    with pytest.raises(BadSetting, match=f"{name}='{value}' is not"):
        Settings.read({name: value})


def test_the_readme_lists_every_variable_the_service_reads_and_no_other():
    table = set(re.findall(r"^\| `([A-Z_]+)` \|", README.read_text(encoding="utf-8"), re.M))
    read = set(re.findall(r'"((?:REFEREE_[A-Z_]+)|PORT)"', CONFIG.read_text(encoding="utf-8")))
    assert len(read) == len(fields(Settings))
    assert table == read
