"""``gouji validate``'s diagnostics in Chinese: one table from the English message to its Chinese.

The library keeps one text per diagnostic (English, what ``VariantFileError.message`` holds and
what programs match); a club reads it through this table, which ``VariantFileError.format("zh")``
applies.  Each row is a pattern of an English message with the parts that vary (a key, a value,
a number) as groups, and the Chinese that says the same with those parts in place.  Keys,
values and code written in the file are quoted as they were written, since that is what the club
must find and change.  A message no row matches is shown in English rather than guessed at.
"""

from __future__ import annotations

import re
from collections.abc import Callable

KINDS = {
    "a whole number": "整数",
    "true or false": "true 或 false",
    "text": "文字",
    "a mapping": "映射（键: 值）",
    "a list": "列表",
    "nothing (null)": "空值（null）",
    "a number (int)": "数（int）",
    "true/false (bool)": "真假（bool）",
    "a rank": "点数",
    "a list of ranks": "点数列表",
    "a list of numbers": "数的列表",
}


def _kind(text: str) -> str:
    text = text.strip()
    if text in KINDS:
        return KINDS[text]
    if text.startswith("one of "):
        return "以下之一：" + text[len("one of ") :]
    m = re.fullmatch(r"the text (.+)", text)
    return f"文字 {m.group(1)}" if m else text


def _want(text: str) -> str:
    """``exactly 6`` / ``at least 1`` / ``2 to 5`` (how many items a list must have)."""
    m = re.fullmatch(r"exactly (\d+)", text)
    if m:
        return f"正好 {m.group(1)} 项"
    m = re.fullmatch(r"at least (\d+)", text)
    if m:
        return f"至少 {m.group(1)} 项"
    m = re.fullmatch(r"(\d+) to (\d+)", text)
    return f"{m.group(1)} 到 {m.group(2)} 项" if m else text


_KINDS_OF_FILE = {"a pipe (FIFO)": "管道（FIFO）", "a device": "设备", "a socket": "套接字", "a folder": "文件夹"}
_FULL = {"colon": "冒号", "comma": "逗号", "bracket": "方括号", "brace": "花括号", "quote": "引号"}

Row = tuple[str, str | Callable[[re.Match[str]], str]]

MESSAGES: tuple[Row, ...] = (
    (r"cannot write the output to stdout: (?P<e>.+)", r"结果写不到标准输出：\g<e>"),
    (r"in hooks\.(?P<h>\w+): (?P<m>.+)", lambda m: f"hooks.{m['h']} 的表达式里：{translate_expr(m['m'])}"),
    (r"(?P<k>\S+) must be at most (?P<n>\S+), not (?P<v>.+)", r"\g<k> 最大为 \g<n>，不能是 \g<v>"),
    (r"(?P<k>\S+) must be at least (?P<n>\S+), not (?P<v>.+)", r"\g<k> 最小为 \g<n>，不能是 \g<v>"),
    (r"(?P<k>\S+): (?P<v>.+) is not one of (?P<e>.+)", r"\g<k>：\g<v> 不是可选值（可选：\g<e>）"),
    (r"(?P<k>\S+) must be true or false, not (?P<v>.+)", lambda m: f"{m['k']} 要写 true 或 false，{_not(m['v'])}"),
    (r"(?P<k>\S+) must be a whole number, not (?P<v>.+)", lambda m: f"{m['k']} 要写整数，{_not(m['v'])}"),
    (
        r"(?P<k>\S+) must be a mapping \(key: value\), not (?P<v>.+)",
        lambda m: f"{m['k']} 要写成映射（键: 值），{_not(m['v'])}",
    ),
    (r"(?P<k>\S+) must be a list, not (?P<v>.+)", lambda m: f"{m['k']} 要写成列表，{_not(m['v'])}"),
    (r"(?P<k>\S+) must be (?P<w>.+?), not (?P<v>.+)", lambda m: f"{m['k']} 要写{_kind(m['w'])}，{_not(m['v'])}"),
    (r"(?P<k>\S+): missing value; expected (?P<w>.+)", lambda m: f"{m['k']}：没有写值；要写{_kind(m['w'])}"),
    (
        r"(?P<k>\S+): null is not allowed here; expected (?P<w>.+)",
        lambda m: f"{m['k']}：这里不能写 null；要写{_kind(m['w'])}",
    ),
    (
        r"(?P<k>\S+) must have (?P<w>.+) items, not (?P<n>\d+)",
        lambda m: f"{m['k']} 要有{_want(m['w'])}，不是 {m['n']} 项",
    ),
    (r"unknown key (?P<k>.+)", r"没有这个键 \g<k>"),
    (r"unknown hook (?P<k>.+)", r"没有这个表达式规则（hook） \g<k>"),
    (r"duplicate key (?P<k>.+) \(first given at line (?P<n>\d+)\)", r"键 \g<k> 写了两次（第一次在第 \g<n> 行）"),
    (r"(?P<k>\S+): '10' and 'T' are the same rank, given twice", r"\g<k>：'10' 和 'T' 是同一个点数，写了两次"),
    (
        r"the file is empty; a variant file is a mapping \(extends:, name:, …\)",
        "文件是空的；规则文件是一个映射（extends:、name: …）",
    ),
    (
        r"a variant file is a mapping \(extends:, name:, …\), not (?P<v>.+)",
        lambda m: f"规则文件是一个映射（extends:、name: …），{_not(m['v'])}",
    ),
    (r"file is not valid UTF-8", "文件不是有效的 UTF-8 编码"),
    (r"file is too large(?P<r>.*)", lambda m: "文件太大" + _too_large(m["r"])),
    (r"only one YAML document per file is allowed", "一个文件只能有一个 YAML 文档"),
    (r"merge keys \(<<\) are not supported", "不支持合并键（<<）"),
    (r"YAML tags are not allowed \(found (?P<t>.+)\)", r"不允许使用 YAML 标签（这里写了 \g<t>）"),
    (r"a tab character: YAML indents with spaces only", "制表符（Tab）：YAML 只能用空格缩进"),
    (r"a tab character where YAML needs a space", "这里是制表符（Tab），YAML 要的是空格"),
    (r"invalid YAML: (?P<p>.+)", lambda m: f"YAML 格式错误：{_yaml_problem(m['p'])}"),
    (
        r"this value expands to more than (?P<n>\d+) nodes once aliases are expanded",
        r"这个值展开别名后超过 \g<n> 个节点",
    ),
    (
        r"full-width (?P<what>colon|comma|bracket|brace|quote) (?P<c>\S+): YAML needs the ASCII (?P<a>\S+)(?P<w> \(where YAML stopped reading\))?",
        lambda m: (
            f"全角{_FULL[m['what']]} {m['c']}：YAML 要用半角（ASCII）的 {m['a']}"
            + ("（YAML 读到这里停下）" if m["w"] else "")
        ),
    ),
    (r"extends cycle: (?P<c>.+)", r"extends 绕成了一个圈：\g<c>"),
    (r"extends: no file (?P<t>.+)", r"extends：没有文件 \g<t>"),
    (r"extends: no shipped variant or file (?P<t>.+)", r"extends：没有叫 \g<t> 的内置规则或文件"),
    (r"extends must name a shipped variant or a file path", "extends 要写一个内置规则的名字或一个文件路径"),
    (r"extends chain is longer than (?P<n>\d+) files", r"extends 链超过 \g<n> 个文件"),
    (
        r"extends: (?P<t>.+) is outside the folder being edited \((?P<r>.+)\)",
        r"extends：\g<t> 不在正在编辑的文件夹 \g<r> 里",
    ),
    (r"extends: a file name cannot hold a NUL character", "extends：文件名里不能有 NUL 字符"),
    (
        r"name: (?P<v>.+?) may use only letters \(of any script\), digits, '_' and '-' \(not first\)",
        r"name：\g<v> 只能用字母（任何文字）、数字、'_' 和 '-'（'-' 不能在开头）",
    ),
    (
        r"deck\.hand_size (?P<h>\d+) × 6 is more than the (?P<n>\d+) cards in the deck",
        r"deck.hand_size：\g<h> × 6 比整副牌的 \g<n> 张还多",
    ),
    (
        r"deck\.remove takes (?P<r>\d+) cards of (?P<s>\S+) but the deck has (?P<n>\d+)",
        r"deck.remove 要去掉 \g<r> 张 \g<s>，可整副牌只有 \g<n> 张",
    ),
    (
        r"deck\.extra adds (?P<s>\S+) cards that deck\.remove also removes; write only the net change",
        r"deck.extra 加的 \g<s> 又被 deck.remove 去掉了；只写净变化",
    ),
    (r"(?P<k>\S+) has no effect: hooks\.(?P<h>\w+) decides instead", r"\g<k> 不起作用：由 hooks.\g<h> 决定"),
    (
        r"(?P<k>\S+) has no effect: (?P<s>\w+)\.enabled is false",
        r"\g<k> 不起作用：\g<s>.enabled 是 false（这一节没有采用）",
    ),
    (
        r"sets\.(?P<f>\w+) only applies when sets\.beat is (?P<u>.+) \(here (?P<b>\w+)\)",
        r"sets.\g<f> 只在 sets.beat 为 \g<u> 时起作用（这里是 \g<b>）",
    ),
    (
        r"every place scores the same \(scoring\.points\): the places never change the score",
        "每个名次得分都一样（scoring.points）：名次不影响得分",
    ),
    (
        r"hooks\.team_score ignores the places: it uses neither points nor places",
        "hooks.team_score 不看名次：既没用 points 也没用 places",
    ),
    (
        r"burning needs 开点 \(burn\.needs_open_point\) but open_point\.enabled is false: nobody can ever burn",
        "烧牌要先开点（burn.needs_open_point），可 open_point.enabled 是 false：谁也烧不了",
    ),
    (
        r"burning needs a joker on every later set, but sets\.attach_jokers is empty: no burn can succeed",
        "烧牌后每套都要挂王，可 sets.attach_jokers 是空的：烧牌不可能成功",
    ),
    (
        r"free_for_all\.after_out is (?P<n>\d+): with 5 players out only one is left, so 四人乱缠 can never start",
        r"free_for_all.after_out 是 \g<n>：走了 5 个人只剩一个人，四人乱缠永远开始不了",
    ),
    (
        r"open_point\.deadline_out is (?P<n>\d+): never reached in a hand of 6 players",
        r"open_point.deadline_out 是 \g<n>：六个人的一局永远到不了",
    ),
    (
        r"(?P<r>.+) (?:is|are) both in sets\.bare \(sets that carry nothing\) and in sets\.attach_jokers \(cards that are attached\)",
        r"\g<r> 既在 sets.bare（不能挂花贴钱）里，又在 sets.attach_jokers（可以挂的牌）里",
    ),
    (
        r"(?P<k>\S+) is too long \((?P<n>\d+) characters; at most (?P<m>\d+)\)",
        r"\g<k> 太长（\g<n> 个字符；最多 \g<m> 个）",
    ),
    (r"document is too large once aliases are expanded \((?P<w>.+)\)", r"展开别名后文档太大（\g<w>）"),
    (
        r"is (?P<k>a pipe \(FIFO\)|a device|a socket|a folder), not (?:a regular )?file",
        lambda m: f"是{_KINDS_OF_FILE.get(m['k'], m['k'])}，不是普通文件",
    ),
    (
        r"is (?P<n>[\d,]+) bytes; files of at most (?P<m>[\d,]+) bytes are read",
        r"有 \g<n> 字节；只读最多 \g<m> 字节的文件",
    ),
    (r"is larger than (?P<m>[\d,]+) bytes, the most that is read", r"超过 \g<m> 字节（最多只读这么多）"),
    (r"no such file", "没有这个文件"),
    (r"permission denied", "没有权限读"),
    (
        r"extends: cannot read (?P<t>'[^']*'): it (?P<why>.+)",
        lambda m: f"extends：读不了 {m['t']}：它{translate(m['why'])}",
    ),
    (r"unknown variant (?P<v>'[^']*'); did you mean (?P<w>'[^']*')\?", r"没有叫 \g<v> 的规则；是不是要写 \g<w>？"),
    (r"unknown variant (?P<v>'[^']*'); shipped variants: (?P<e>.+)", r"没有叫 \g<v> 的规则；内置规则有：\g<e>"),
    (
        r"(?P<f>.+): is also an input of this command; write the output to another file",
        r"\g<f>：这也是这个命令读的文件；请写到另一个文件",
    ),
    (r"(?P<f>.+): is named as an output twice", r"\g<f>：写了两次输出"),
    (r"(?P<f>.+): is a folder; give a file name to write to.*", r"\g<f>：是文件夹；请给一个要写的文件名"),
    (
        r"(?P<f>.+): is not a regular file \(a FIFO or a device\); give a file name.*",
        r"\g<f>：不是普通文件（是管道或设备）；请给一个要写的文件名",
    ),
    (
        r"(?P<f>.+): is a database \(an event file\?\); it is never overwritten, write to another file",
        r"\g<f>：是数据库（赛事文件？），永远不会被覆盖；请写到另一个文件",
    ),
    (r"no such folder", "没有这个文件夹"),
    (r"(?P<b>.+) made no picture: (?P<w>.+)", r"\g<b> 没有画出图：\g<w>"),
    (r"(?P<b>.+) did not finish drawing the page in (?P<n>\d+) s", r"\g<b> 在 \g<n> 秒内没有画完"),
    (r"(?P<b>.+) could not be started: (?P<w>.+)", r"\g<b> 启动不了：\g<w>"),
    (
        r"--png needs Chromium to draw the page: install it \(Debian: apt-get install chromium\)",
        "--png 要用 Chromium 画图：请先安装（Debian：apt-get install chromium）",
    ),
    (r"a key must be plain text, not (?P<v>.+)", lambda m: f"键只能是普通文字，{_not(m['v'])}"),
)


def _too_large(rest: str) -> str:
    m = re.fullmatch(r" \(a variant file may have at most (\d+) bytes\)", rest)
    if m:
        return f"（规则文件最多 {m.group(1)} 字节）"
    m = re.fullmatch(r" \((\d+) bytes; a variant file may have at most (\d+)\)", rest)
    return f"（{m.group(1)} 字节；规则文件最多 {m.group(2)} 字节）" if m else rest


def _not(value: str) -> str:
    """``不能是列表`` / ``不能是 'on'``: a value as written keeps a space before it."""
    kind = _kind(value)
    return f"不能是 {kind}" if kind[:1].isascii() else f"不能是{kind}"


YAML_PROBLEMS = {
    "mapping values are not allowed here": "这里不能有“键: 值”（冒号后的值）",
    "could not find expected ':'": "找不到应有的 ':'",
    "found character that cannot start any token": "这个字符不能出现在这里",
    "found undefined alias": "用了没有定义的别名",
}


def _yaml_problem(text: str) -> str:
    for en, zh in YAML_PROBLEMS.items():
        if text.startswith(en):
            return zh + text[len(en) :]
    m = re.fullmatch(r"expected (.+), but (?:got|found) (.+?)( \(while parsing (.+)\))?", text)
    if m:
        return f"这里要 {m.group(1).replace(' or ', ' 或 ')}，却是 {m.group(2)}"
    return text


EXPR: tuple[Row, ...] = (
    (r"unknown name (?P<n>.+)", r"没有这个名字 \g<n>"),
    (r"unknown function (?P<n>.+)", r"没有这个函数 \g<n>"),
    (r"unknown rank (?P<n>.+)", r"没有这个点数 \g<n>"),
    (r"the expression ends too early", "表达式没写完"),
    (r"empty expression", "表达式是空的"),
    (r"unexpected (?P<c>'.*')", r"这里不能出现 \g<c>"),
    (r"unexpected character (?P<c>.+)", r"这里不能出现字符 \g<c>"),
    (r"unterminated quoted rank", "点数的引号没有关上"),
    (r"(?P<op>'=.') is not an operator", r"\g<op> 不是运算符"),
    (r"attribute access \('\.'\) is not part of the expression language", "表达式里不能用 '.' 取属性"),
    (r"full-width (?P<c>.+)", r"全角字符 \g<c>"),
    (
        r"cannot compare (?P<a>.+?) with (?P<b>.+?) using (?P<op>\S+)",
        lambda m: f"{_kind(m['a'])}和{_kind(m['b'])}不能用 {m['op']} 比较",
    ),
    (
        r"each side of (?P<op>and|or) must be true/false \(bool\), not (?P<t>.+)",
        lambda m: f"{m['op']} 两边都要是真假（bool），{_not(m['t'])}",
    ),
    (
        r"hook (?P<h>\w+) must give (?P<w>.+?), but this expression gives (?P<g>.+)",
        lambda m: f"{m['h']} 要得出{_kind(m['w'])}，这个表达式得出的是{_kind(m['g'])}",
    ),
    (
        r"expression is too long \((?P<n>\d+) characters; at most (?P<m>\d+)\)",
        r"表达式太长（\g<n> 个字符；最多 \g<m> 个）",
    ),
    (
        r"expression nests too deeply \(more than (?P<n>\d+) (?P<w>brackets|levels)\)",
        r"表达式嵌套太深（超过 \g<n> 层）",
    ),
)

HINTS: tuple[Row, ...] = (
    (
        r"did you mean (?P<w>'[^']*')\? \(codes are written in English; (?P<v>.+) is (?P<c>\S+)\)",
        r"是不是要写 \g<w>？（代码要用英文写；\g<v> 就是 \g<c>）",
    ),
    (r"did you mean (?P<w>'[^']*')\?", r"是不是要写 \g<w>？"),
    (r"remove the quotes", "去掉引号"),
    (r"write a number", "写一个数"),
    (r"write a plain decimal whole number such as 2", "写一个普通的十进制整数，比如 2"),
    (r"write it in ASCII digits: (?P<v>.+)", r"用半角数字写：\g<v>"),
    (r"write it in digits: (?P<v>.+)", r"用数字写：\g<v>"),
    (r"write (?P<v>true|false)", r"写 \g<v>"),
    (
        r"YAML 1\.1 would read (?P<v>.+) as an octal number; write it without the leading 0",
        r"YAML 1.1 会把 \g<v> 当成八进制数；去掉开头的 0",
    ),
    (r"YAML 1\.1 would read (?P<v>.+) as a base-60 number", r"YAML 1.1 会把 \g<v> 当成六十进制数"),
    (
        r"only true and false are booleans here \(YAML 1\.1 would read (?P<v>.+) as one\)",
        r"这里只有 true 和 false 是真假值（YAML 1.1 会把 \g<v> 当成真假值）",
    ),
    (r"YAML needs a space after the colon: (?P<v>.+)", r"YAML 的冒号后面要有空格：\g<v>"),
    (r"YAML needs a space after '-': (?P<v>.+)", r"YAML 的 '-' 后面要有空格：\g<v>"),
    (r"write a list: (?P<v>.+)", r"写成列表：\g<v>"),
    (r"keys are written in English: (?P<k>.+) is (?P<n>\S+)", r"键要用英文写：\g<k> 就是 \g<n>"),
    (r"(?P<k>\S+) belongs in (?P<s>\S+): \((?P<p>\S+)\)", r"\g<k> 属于 \g<s>:（\g<p>）"),
    (r"hooks go under hooks: \((?P<p>\S+)\)", r"表达式规则写在 hooks: 下面（\g<p>）"),
    (r"expected one of: (?P<e>.+)", r"可以写的有：\g<e>"),
    (r"shipped variants: (?P<e>.+)", r"内置规则有：\g<e>"),
    (r"write: (?P<v>.+)", r"应写成：\g<v>"),
    (r"write a space", "写一个空格"),
    (
        r"replace the tab with spaces \(two spaces per level, as in the shipped files\)",
        "把制表符换成空格（每层两个空格，和内置文件一样）",
    ),
    (
        r"write (?P<op>[<>]=) \((?P<w>at least|at most)\)",
        lambda m: f"写 {m['op']}（{'至少' if m['w'] == 'at least' else '至多'}）",
    ),
    (r"a rank is written in quotes: for example (?P<r>.+)", r"点数要加引号，例如 \g<r>"),
    (r"a rank is written in quotes: (?P<r>.+)", r"点数要加引号：\g<r>"),
    (r"integer division is written //", "整除要写 //"),
    (r"comparison is written ==", "比较相等要写 =="),
    (r"write and, or, not", "写 and、or、not"),
    (r"write the ASCII (?P<c>.+)", r"写半角（ASCII）的 \g<c>"),
    (r"use extends: to build on another variant", "用 extends: 在别的规则上改"),
    (r"a variant cannot extend itself", "规则不能 extends 它自己"),
    (
        r"extends may name a shipped variant or a file in that folder or below it",
        "extends 只能写内置规则的名字，或这个文件夹（及其子文件夹）里的文件",
    ),
    (r"a 'billion laughs'\?", "是“十亿笑声”（billion laughs）攻击吗？"),
    (
        r"a 'billion laughs' alias bomb\? variant files need no aliases",
        "是“十亿笑声”（billion laughs）别名炸弹吗？规则文件用不着别名",
    ),
    (
        r"check the indentation: the keys of one mapping line up, and a value needs a space after ':'",
        "检查缩进：同一层的键要对齐，':' 后面要有空格",
    ),
    (r"write plain values; no !! tags", "写普通的值；不要用 !! 标签"),
    (
        r"a club's variant file is a few dozen lines; use extends: for the rest",
        "俱乐部的规则文件只有几十行；其余的用 extends: 继承",
    ),
    (r"compare it, for example: (?P<e>.+)", r"要比较一下，例如：\g<e>"),
    (r"write a rank in quotes, for example (?P<r>.+)", r"点数要加引号，例如 \g<r>"),
    (r"write and, or", "写 and、or"),
    (
        r"expected (?P<e>.+)",
        lambda m: (
            "这里可以写："
            + m["e"].replace("a name", "名字").replace("a number", "数").replace("a quoted rank", "加引号的点数")
        ),
    ),
    (r"ranks are (?P<e>.+)", r"点数有：\g<e>"),
    (r"this hook's names: (?P<e>.+)", r"这个表达式能用的名字：\g<e>"),
    (r"functions: (?P<e>.+)", r"函数有：\g<e>"),
    (r"[^()]+ \((?P<zh>[^()]*[\u4e00-\u9fff][^()]*)\)", r"\g<zh>"),
    (r"write null for no deadline", "不设期限就写 null"),
    (
        r"set burn\.needs_open_point: false, or burn\.enabled: false",
        "设 burn.needs_open_point: false，或 burn.enabled: false",
    ),
    (r"四人乱缠 starts after 2 players are out in S0 and S4", "点烧闷拉和大纲都是走了 2 个人后开始四人乱缠"),
    (r"for example: (?P<e>.+)", r"例如：\g<e>"),
    (
        r"a name is used as a file name and on the command line: no spaces, dots or punctuation",
        "名字会用作文件名和命令行参数：不能有空格、点或标点",
    ),
    (r"(?P<c>'.+') \(U\+(?P<u>[0-9A-F]+)\) is not a letter or a digit", r"\g<c>（U+\g<u>）不是字母也不是数字"),
    (r"write a condition or a formula, for example: (?P<e>.+)", r"写一个条件或公式，例如：\g<e>"),
)

_compiled: dict[int, list[tuple[re.Pattern[str], str | Callable[[re.Match[str]], str]]]] = {}


def _apply(rows: tuple[Row, ...], text: str) -> str | None:
    table = _compiled.get(id(rows))
    if table is None:
        table = _compiled[id(rows)] = [(re.compile(p + r"\Z", re.S), zh) for p, zh in rows]
    for pattern, zh in table:
        m = pattern.match(text)
        if m is not None:
            return zh(m) if callable(zh) else m.expand(zh)
    return None


def translate_expr(message: str) -> str:
    """An expression error's message (after ``in hooks.x:``) in Chinese, or itself."""
    return _apply(EXPR, message) or message


def translate(message: str) -> str:
    """A diagnostic's message in Chinese, or the English when the table has no row for it."""
    return _apply(MESSAGES, message) or message


def translate_hint(hint: str) -> str:
    """A diagnostic's hint in Chinese, or the English when the table has no row for it."""
    return _apply(HINTS, hint) or hint


STATUS = {"ok": "没有问题", "not found": "找不到", "cannot be read": "读不了", "error": "错误", "warning": "警告"}


def count(n: int, what: str, lang: str) -> str:
    """``2 errors`` / ``2 个错误``."""
    if lang == "zh":
        return f"{n} 个{STATUS[what]}"
    return f"{n} {what}{'s' if n != 1 else ''}"
