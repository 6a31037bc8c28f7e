"""Chinese fact patterns of what people do for a living, said as a line of work rather than a title:
我老公是做外贸的, 去了字节做算法, 在海纳百货做数据分析, 我表妹在新加坡做金融; and a promotion to a role
(我升主管了, 从高级工程师升到技术经理).

A line of work is a HAS_ROLE only when it names one (``_FIELD``: 算法, 外贸, 数据分析, 游戏策划, 律师…), never
what one happens to do there (做饭, 做项目, 做兼职, 做个PPT). Spliced into the Chinese table
(``engram.ingest.patterns_zh``); see ``engram.ingest.frames.Pattern``.
"""

from __future__ import annotations

from functools import partial

from engram.ingest.frames import ZH_ROLE, Pattern, pattern

zh = partial(pattern, "zh")

_FIELD = (
    r"(?P<obj>[\u4e00-\u9fffA-Za-z]{0,4}?(?:工程师|开发|设计师?|运营|分析|研发|销售|市场|财务|会计|律师|医生|老师|"
    r"教师|护士|产品经理|产品|测试|算法|金融|外贸|投行|咨询|供应链|策划|编辑|记者|翻译|客服|售前|售后|交付|运维|前端|"
    r"后端|原画|电商|物流|采购|HR|人事|法务|行政|审计|风控|投资|猎头|UI|UX|程序员|架构师))"
)
"""A line of work (电池研发, 数据分析, 游戏策划), up to four characters before its head word."""
_FIELD_END = r"(?=[，。！？；,.!?;\s]|的|了|$)"

ZH_WORK_PATTERNS: tuple[Pattern, ...] = (
    # 我老公是做外贸的, 我男朋友是做游戏策划的 (not 你是做什么的)
    zh("HAS_ROLE", rf"是做{_FIELD}的", 0.8, kind="entity", object_type="role", trigger="是做"),
    # 去了字节做算法, 在海纳百货做数据分析, 在新加坡做金融, 下周一去拼多多报到，做供应链
    zh("HAS_ROLE", rf"(?:(?:在|去了?|到|进了?)[^，。！？；]{{1,12}}?|报到[，,]\s?|现在|目前)做"
       rf"{_FIELD}(?=[，。！？；,.!?;\s]|了|$)",  # not 在一家做跨境电商的创业公司: the company's trade
       0.75, kind="entity", object_type="role", supposable=True, trigger="做"),
    # 我老婆是护士，在儿童医院; 我弟刚考上公务员，在南京市税务局: a job, then where it is held (not 在北京: a
    # place; not 在家休息; not after a bare 老师, which the mention finder reads as a name)
    zh("WORKS_AT", rf"(?:是|当|考上了?)(?!老师[，,]){ZH_ROLE}[，,]\s?(?:现在|目前)?在(?P<obj>[\u4e00-\u9fffA-Za-z]{{2,12}}?)"
       r"(?=[，。！？；,.!?;\s]|$|上班|工作)", 0.75, require_mention=True, strict=True, object_type="organisation",
       trigger="在"),
    # 我升主管了, 邹雨从高级工程师升到技术经理 (a subject said, never the writer implied; not 今年争取升主管: a goal)
    zh("HAS_ROLE", rf"(?<!提)(?<!争取)(?<!希望)(?<!想)升(?:职)?(?:到|为|成|任|了)?(?P<obj>{ZH_ROLE})"
       rf"{_FIELD_END}", 0.8,
       kind="entity", object_type="role", supposable=True, named_subject=True, trigger="升"),
)  # fmt: skip
