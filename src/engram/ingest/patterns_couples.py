"""Fact patterns of who is with whom: couples married, engaged, dating, together or parted, in English
and Chinese ("married to Tom", "Lena and I got engaged", "me and Sophie broke up", 我和阿峰下个月领证了,
我和小雅在一起两年了). A couple said to part is a negated fact (``engram.ingest.implied``); a relative named
by their kind ("my wife", 我老公) is related to the speaker by ``engram.ingest.relatives``.

Each table is spliced into its language's table (``engram.ingest.patterns_en``, ``patterns_zh``) where
the marriages were; see ``engram.ingest.frames.Pattern``.
"""

from __future__ import annotations

from functools import partial

from engram.ingest.frames import EN_NAME, ZH_NAME_BARE, Pattern, pattern

en = partial(pattern, "en")
zh = partial(pattern, "zh")

_COUPLE_BEGUN_OR_PARTED = (
    r"(?:got\sengaged|are\s(?:now\s)?(?:engaged|official|dating)|(?:are|have\sbeen|'ve\sbeen)\stogether"
    r"(?!\s(?:on|in|at|with|to|for\sthe)\b)|(?:have\s)?(?:broke|broken|split)\sup|are\s(?:splitting|breaking)\sup)"
    r"(?!\s(?:the|a|an|our|their|this|that|it|them|work)\b)"
)
_MARRIED_OR_DIVORCED = r"(?:got\smarried|are\s(?:now\s)?married|(?:got\s)?divorced|are\sdivorcing)"
_ZH_WHEN = (
    r"(?:下个?月|下周|上个?月|上周|今年|去年|明年|昨天|今天|前天|"
    r"终于|已经|正式|刚刚?|年底|月底|国庆|春节|要|准备|打算)*"
)
"""What may stand between a couple and what they did (我和阿峰下个月领证了)."""
_ZH_ME_AND = (
    rf"我(?:和|跟|与)(?!我|老公|老婆|男朋友|女朋友|对象|爱人|媳妇|先生|太太|前){ZH_NAME_BARE}{_ZH_WHEN}"
)
"""我和阿峰…, not 我和(我)老公… (a relative by their kind: ``engram.ingest.relatives``)."""

EN_COUPLE_PATTERNS: tuple[Pattern, ...] = (
    en("MARRIED_TO", rf"\bmarried (?:to )?(?-i:(?!My\b|The\b)){EN_NAME}", 0.9, kind="entity",
       object_type="person", trigger="married"),
    # "got engaged to Isla": a partner, not yet a spouse
    en("PARTNER_OF", rf"\bengaged to (?-i:(?!My\b|The\b|Her\b|His\b)){EN_NAME}", 0.85, kind="entity",
       object_type="person", trigger="engaged to"),
    # "just got engaged to her boyfriend Raul": the partner named after their kind
    en("PARTNER_OF", rf"\bengaged to (?:her|his|my|their) (?:boyfriend|girlfriend|partner|fiancée?)"
       rf"\s{EN_NAME}", 0.85, kind="entity", object_type="person", trigger="engaged to"),
    # "I'm dating Anouk", "started seeing Anouk", "been seeing someone, her name's Anouk", "Dan proposed!"
    en("PARTNER_OF", rf"\b(?:(?:I'm|I am|I've been|I have been|been|started|I started)\s(?:now\s)?dating|"
       rf"(?:I've been|I have been|been|started|I started)\sseeing|"
       rf"seeing\ssomeone,?\s(?:her|his|their)\sname(?:'s|\sis))\s"
       rf"(?!Dr\b|Mr\b|Mrs\b|Ms\b|Prof\b){EN_NAME}\b(?!\s(?:on|at|tomorrow|today|tonight|next|this|later|about|for)\b)",
       0.8, subject="speaker", kind="entity", object_type="person", trigger="dating|seeing"),
    en("PARTNER_OF", rf"(?:^|(?<=[.!?]\s)){EN_NAME}\sproposed(?:\sto me\b|\s*!)", 0.8, subject="speaker",
       kind="entity", object_type="person", strict=True, trigger="proposed"),
    # "Lena and I got engaged", "me and Sophie broke up" (the couple parted: engram.ingest.implied), "Kasia
    # and I have been together 10 years", "anna and I are official", "me and Aoife got married"
    *(
        en(predicate, rf"{couple}\s(?:just\s|finally\s|officially\s)?{said}\b", 0.85, subject="speaker",
           kind="entity", object_type="person", strict=True, negatable=False, trigger=trigger)
        for couple in (rf"\b(?-i:(?!My\b|The\b|Mom\b|Mum\b|Dad\b)){EN_NAME}\sand\sI",
                       rf"\b(?:me|I)\sand\s{EN_NAME}")
        for predicate, said, trigger in (
            ("PARTNER_OF", _COUPLE_BEGUN_OR_PARTED, "engaged|official|dating|together|broke|broken|split"),
            ("MARRIED_TO", _MARRIED_OR_DIVORCED, "married|divorced|divorcing"),
        )
    ),
    en("PARTNER_OF", rf"\b(?:broke|broken|split)\sup\swith\s(?-i:(?!My\b|The\b|Her\b|His\b)){EN_NAME}\b", 0.8,
       kind="entity", object_type="person", strict=True, negatable=False, trigger="broke|broken|split"),
)  # fmt: skip

ZH_COUPLE_PATTERNS: tuple[Pattern, ...] = (
    zh("MARRIED_TO", rf"(?:和|跟){ZH_NAME_BARE}结婚", 0.9, kind="entity", object_type="person",
       trigger="结婚"),
    # 我和阿峰下个月领证了 (a partner until then), 我和阿花离婚了 (parted: engram.ingest.implied)
    zh("MARRIED_TO", rf"{_ZH_ME_AND}(?:领证|结婚|离婚|离了婚)", 0.85, subject="speaker", kind="entity",
       object_type="person", require_mention=True, strict=True, negatable=False, future="PARTNER_OF",
       trigger="领证|结婚|离婚"),
    # 我和小雅在一起两年了, 我跟阿杰订婚了, 我和小周分手了
    zh("PARTNER_OF", rf"{_ZH_ME_AND}(?:订婚|(?<![住待坐玩])在一起"
       r"(?=了|\d|[一二两三四五六七八九十几]|[，。！~❤]|$)|谈恋爱|确定(?:了)?(?:恋爱)?关系|分手|分开了|复合)",
       0.85,
       subject="speaker", kind="entity", object_type="person", require_mention=True, strict=True,
       negatable=False, trigger="订婚|在一起|谈恋爱|关系|分手|分开|复合"),
    zh("PARTNER_OF", rf"{ZH_NAME_BARE}(?:向我|跟我|和我)求婚", 0.85, subject="speaker", kind="entity",
       object_type="person", require_mention=True, strict=True, negatable=False, trigger="求婚"),
)  # fmt: skip
