"""Fact patterns of where people live and come from, in Chinese: moves, homes rented or bought, hometowns,
where an organisation sits, a relative placed by their town (我哥在美国湾区), how long one has been somewhere
(来广州八年了), a marriage that moves one (嫁到了厦门). Moves by a job (调到成都分公司) and the places one stays
(留在武汉) are in ``engram.ingest.patterns_zh``, among the jobs; the English patterns are in
``engram.ingest.patterns_en_homes``.

The table is spliced into ``engram.ingest.patterns_zh`` where these patterns were; see
``engram.ingest.frames.Pattern``.
"""

from __future__ import annotations

from functools import partial

from engram.ingest.frames import ZH_OBJ, Pattern, pattern, zh_obj_before
from engram.ingest.frames_zh import NEAR
from engram.ingest.relatives import KIN_ZH

zh = partial(pattern, "zh")

_WORK_KIN = frozenset({"领导", "老板", "上司", "同事"})
_KIN = "|".join(
    sorted((word for word in KIN_ZH if word not in _WORK_KIN and not word.isascii()), key=len, reverse=True)
)
"""A relative or someone close by their kind (哥, 表姐, 老公); not a boss or colleague, who may only work there."""
_HOW_LONG = r"(?:快|已经|都|有|差不多|将近|近)?[一二两三四五六七八九十几\d]+多?(?:年|个月)了"
"""How long one has been somewhere (八年了, 快十年了, 一个月了)."""

ZH_HOME_PATTERNS: tuple[Pattern, ...] = (
    zh("MOVED_FROM", rf"从{zh_obj_before('搬到|搬去|搬回|搬来|搬走|搬离|调回')}", 0.85, require_mention=True,
       object_type="place", trigger="搬|调回"),
    zh("MOVED_FROM", rf"(?:搬离了?|离开了?){ZH_OBJ}", 0.8, require_mention=True, object_type="place",
       trigger="搬离|离开"),
    zh("COMES_FROM", rf"(?:来自|老家在|老家是|出生在|出生于|生在|长在|老家){ZH_OBJ}", 0.85, require_mention=True,
       object_type="place", trigger="来自|老家|出生|生在|长在"),
    zh("LIVES_IN", r"(?:^|(?<=[，。！；：]))(?:(?!春节|过年|五一|国庆|中秋|端午|元旦|清明|假期|放假|出差)[^，。！？；])*?"
       r"(?:搬回|从[\u4e00-\u9fff]{2,4}?回)(?P<obj>[\u4e00-\u9fff]{2,4}?)老家(?:了|住|定居|养老|长住)(?=[，。！]|$)"
       r"(?![^。！？]*(?:待了|参加|看看|几天|过年|过节))",
       0.75, require_mention=True, strict=True, object_type="place", trigger="老家"),
    zh("COMES_FROM", r"回(?P<obj>[\u4e00-\u9fff]{2,4}?)老家", 0.8, require_mention=True, object_type="place",
       trigger="老家"),  # 搬回扬州老家
    zh("COMES_FROM", r"是(?P<obj>[\u4e00-\u9fff]{2,4}?)人(?![员家们士])", 0.8, require_mention=True, object_type="place",
       trigger="人"),
    # 我家在昆明，不过已经十年没回去过年了, 下个月我回家: the family home one comes from, not one's own
    zh("COMES_FROM", rf"(?<!老)家在{ZH_OBJ}(?=[^。！？]*?(?:回家|回去|回老家|老家))", 0.8, require_mention=True,
       object_type="place", trigger="家在"),
    zh("COMES_FROM", rf"(?:回老家|回家)[^。！？]{{0,20}}?家在{ZH_OBJ}", 0.8, require_mention=True, object_type="place",
       trigger="家在"),  # 清明回老家扫墓，我们家在福建莆田
    zh("COMES_FROM", r"在(?P<obj>[\u4e00-\u9fff]{2,6}?)长大", 0.8, require_mention=True, object_type="place",
       trigger="长大"),  # 我小时候在哈尔滨长大
    zh("LIVES_IN", rf"(?<!想)(?<!老)(?:住在|家在|定居在?|居住在|搬到了?|搬回了?|搬去了?|搬来了?|住(?!宿))(?![^，。！？；]*?{NEAR})"
       rf"{ZH_OBJ}", require_mention=True,
       object_type="place", trigger="住|家在|定居|搬"),  # not 我想住在回龙观
    # 在上海租了个一居, 租的房子在望京那边, 找到房子了，在玉泉路附近: a home rented or found (dated by the move it says)
    zh("LIVES_IN", r"在(?P<obj>[\u4e00-\u9fff]{2,4}?)租(?:了|好了|好)(?:个|一套|套|间|一间)?(?:一居|两居|三居|一室|两室|房子?|公寓|单间)",
       0.8, require_mention=True, object_type="place", trigger="租"),
    zh("LIVES_IN", rf"(?:租的|买的|新的?)房子[^。！？；]{{0,12}}?[，,]?在{ZH_OBJ}", 0.8, require_mention=True, object_type="place",
       trigger="房子"),
    zh("LIVES_IN", r"(?:找到|租好|买好|定好|看好|选好)了?(?:新)?房子了?[，,]在?(?P<obj>[\u4e00-\u9fff]{2,4}?)(?=[，。；！]|附近|那边)",
       0.8, require_mention=True, object_type="place", trigger="房子"),
    # 我妈从鞍山过来帮我们带娃: where someone comes over from to help or stay (not 过来玩, 过来开会); 搬回扬州老家,
    # 从北京回绵阳老家了: a move home (not 回杭州老家过年, a visit)
    zh("LIVES_IN", r"从(?!老家)(?P<obj>[\u4e00-\u9fff]{2,4}?)(?:赶)?过来(?=帮|照顾|陪|带娃|带孩子)", 0.75,
       require_mention=True, strict=True, object_type="place", introduces=True, trigger="过来"),
    # 嘉禾新材总部在宁波, 新地址在滨江区江南大道1888号: where an organisation is
    zh("LIVES_IN", rf"(?<!公司)(?:总部|总公司)(?:设|搬)?(?:在|搬到了?|迁到了?){ZH_OBJ}", 0.8, require_mention=True,
       strict=True, object_type="place", trigger="总部|总公司"),
    zh("LIVES_IN", r"(?:新地址|新办公室)(?:在|是|改成了?|换成了?|搬到了?)(?P<obj>[^，。！？；]{2,30}?"
       r"(?:路|街|道|巷|弄|号|大厦|园区|广场|中心|楼)(?:\d+号?)?(?:[A-Za-z]?座)?(?:\d+(?:楼|层|室))?)(?=[，。！；]|$)", 0.8,
       kind="value", trigger="地址|办公室"),  # a new address said whole (not 收货地址是公司前台, not 在哪)
    # 明年准备回合肥发展, 去深圳定居: where one goes to live (not a visit)
    zh("LIVES_IN", r"(?<!不)(?<!不打算)(?<!不想)(?<!不准备)(?<!没打算)(?<!不会)(?:回|去|到)(?:老家)?(?P<obj>[\u4e00-\u9fff]{2,4}?)(?:发展|定居|生活|落户|安家)(?=[，。！？；]|$|了)",
       0.75, require_mention=True, strict=True, whole=True, object_type="place", negatable=False,
       trigger="发展|定居|生活|落户|安家"),  # (离开杭州回合肥发展: what is left is the other city)
    # 我哥在美国湾区，在Google做工程师; 我妹在澳洲留学: a relative's town, said as where they are (not 我妈在医院,
    # 我姐在上海出差: a trip; nor 在望京上班: where one works)
    zh("LIVES_IN", rf"(?P<subj>我(?:的|家)?(?:{_KIN}))(?:一家人?|一个人|现在|目前|还|也|一直|已经)*在"
       r"(?P<obj>[\u4e00-\u9fff]{2,8}?)(?=[，。！；]|$|留学|读书|上学|读研|读博|定居|生活|打工|开了)", 0.75,
       subject="group", subject_type="person", require_mention=True, strict=True, whole=True, object_type="place",
       trigger="在"),
    # 来广州八年了, 来深圳一个月了: how long one has lived somewhere
    zh("LIVES_IN", rf"来(?P<obj>[\u4e00-\u9fff]{{2,4}}?){_HOW_LONG}", 0.75, require_mention=True, strict=True, whole=True,
       object_type="place", trigger="来"),
    # 我妹妹去年嫁到了厦门: married into a town, so living there
    zh("LIVES_IN", r"嫁到了?(?P<obj>[\u4e00-\u9fff]{2,6}?)(?=[，。！；]|$|去了|来了|了)", 0.75, require_mention=True,
       named_subject=True, strict=True, whole=True, object_type="place", trigger="嫁到"),
)  # fmt: skip
