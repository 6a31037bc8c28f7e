"""Chinese fact patterns of the builtin extractor: personal and business memory, chat messages.

Ordered: a more specific pattern comes before a general one, since the first pattern whose
object span is taken wins (``engram.ingest.builtin``). See ``engram.ingest.frames.Pattern``.
"""

from __future__ import annotations

from functools import partial

from engram.ingest.frames import (
    EMAIL_ADDRESS,
    ZH_AMOUNT,
    ZH_DATE,
    ZH_NAME,
    ZH_NAME_BARE,
    ZH_OBJ,
    ZH_OBJ_LONG,
    ZH_ROLE,
    ZH_STOP,
    Pattern,
    pattern,
    zh_obj_before,
)
from engram.ingest.lexicon import ZH_TITLED
from engram.nlp.names import CHINESE_TITLES

zh = partial(pattern, "zh")

_NOT = rf"[^{ZH_STOP}]"
_COUNT = (
    r"(?:\d+|[一二三四五六七八九十百千两]+)(?:台|套|个|件|份|箱|张|部|块|支|辆|把|袋|吨|瓶|盒|包|桶|双|本)"
)
"""A count of things ordered (500台, 八十个)."""
_HELD = r"(?:(?:现在|原来|之前|以前)?(?:在)?(?:管|带|负责|跟)的)"
"""What one held, said before it is handed over (现在管的测试组, 原来跟的小程序)."""
_TAKES_ON = r"(?:来)?(?:带|管|跟|负责|接)?(?=[，。！；了]|$)"
"""How the one handed something takes it on, if said (交给小严带)."""
_CONTACT_NAME = (
    r"(?:(?:他们|对方)(?:公司|那边)?的?)?(?:[\u4e00-\u9fff]{1,6}?(?:部|科|处|组|办公室|办)的)?"
    rf"(?:新来的)?(?:{ZH_ROLE}\s?)?(?P<obj>[\u4e00-\u9fff]{{2,4}}?|[A-Z][a-z]+(?: [A-Z][a-z]+)?)"
    r"(?=[，。！？；,.!?;、\s(（｜|]|$|也|都|在|是|和|的|跟|说|了|负责|对接|聊)"
)
_PERSON = r"(?P<subj>(?![的是在了和跟与把被给对])[\u4e00-\u9fff]{2,3}?|小[\u4e00-\u9fff]|老[\u4e00-\u9fff])"
"""A name: two or three characters (no particle first: "经理的微信是…" names no one), 小X or 老X."""
_PAST_WORDS = (
    r"(?:上周[一二三四五六日天末]?|上个?月|昨天|前天|今天|刚刚?|已经?|早就|去年|今年|前年|最近|年初|月初|前段时间|前阵子|之前|也|都|"
    r"正式|终于|突然|(?<=年|前)就|"
    r"[一二三四五六七八九十两几\d]+(?:年|个月|周|天)前|[一二三四五六七八九十\d]{1,2}月份?)*"
)
"""What may stand between a subject and a verb of leaving that happened (not 打算, 下个月; 就 only
after a past time: 前年就退休了, but 等项目结束我就辞职了 is still to come)."""
_BEFORE_A_NAME = "[跟和与同给找让向对在从约了是说]"
_NAME_START = rf"(?:^|(?<=[^\u4e00-\u9fffA-Za-z])|(?<={_BEFORE_A_NAME}))(?!{_BEFORE_A_NAME})"
"""Where a name may begin: not inside a word, but after a preposition (跟绿源农业刘总: 绿源农业)."""
_TITLES = "|".join(CHINESE_TITLES)
_NOT_A_ROLE = rf"(?!(?:{ZH_ROLE})汇报)"
"""Not a role alone before 汇报 (向销售总监汇报 names nobody)."""
_LEFT_SAID = rf"是?{_PAST_WORDS}(?:离职|辞职|退休)(?:了|的)?(?:[一二三四五六七八九十两几半\d]+个?(?:月|年|周|星期|天)多?了?)?"
"""A leaving that happened, the employer unsaid: 离职了, 是上个月离职的, 辞职三个月了."""
_NOT_A_TIME = r"(?!周[一二三四五六日天末]|星期|礼拜|[今明昨后前]天|[上下本这]周|[上下本这]个?月|月[初底中]|年[初底]|[上下]午|晚上|早上|中午)"
"""What follows a role is no name when it is a time (工程师周五上门)."""
_ORG = r"(?P<obj>[\u4e00-\u9fffA-Za-z0-9]{2,12}?)"
_DEPT = r"(?P<obj>[\u4e00-\u9fff]{2,5}?部)"
_ISSUES = (
    "卡纸|死机|黑屏|断线|掉线|闪退|漏水|发热|发烫|坏了|出问题|出故障|报错|崩溃|卡顿|没反应|打不开|连不上|失灵|"
    "延迟太高"
)
_PET = (
    r"[\u4e00-\u9fff]{0,2}?(?:猫|狗|猫咪|狗狗|兔子|鹦鹉|仓鼠|乌龟|金鱼|鸟|金毛|泰迪|柯基|哈士奇|柴犬|布偶|英短|"
    r"拉布拉多|边牧|萨摩耶|比熊|博美|蓝猫|狸花|三花|橘猫|奶牛猫|田园犬|土狗)"
)
_DO = r"(?:吃|喝|抽|玩|用|看|弹|练|打|跑|去|做|买|听)"
_ALLERGENS = (
    "芒果|花生|海鲜|虾|螃蟹|青霉素|头孢|花粉|尘螨|猫毛|狗毛|牛奶|鸡蛋|坚果|小麦|麸质|酒精|芝麻|大豆|桃子|菠萝|"
    "猕猴桃|磺胺|阿司匹林|鸡肉|牛肉|羊肉|鱼|乳糖"
)
_HABIT = r"平时|平常|每天|天天|一般|都是|都|就|经常|通常|基本"
"""Words that make a ride a habit (平时骑车, 下雨天就打车)."""
_RIDES = r"电动车|电瓶车|自行车|单车|共享单车|摩托车?|地铁|公交车?|班车|校车|轻轨|轮渡"
_ORDER_ID = r"[A-Z]{2,6}-\d{3,}(?:-\d+)*"
"""An order's or a contract's id said in Chinese text (DJ-0612, PO-2401-07)."""
_MOVES_ON = "(?:转去|改去|转岗去?|转而)做"
"""Moving on to other work (转去做渠道)."""
_MOVED_TO = "延到|延期到|推迟到|推到|顺延到"
"""A date moved to another (延到下周三, 上线…推到10月25号)."""
_TEAM_ROLE = rf"(?:[\u4e00-\u9fff]{{1,4}}?(?:组|部|团队|中心|区))?{ZH_ROLE}"
"""A role, with the team or region it is of (架构组组长, 华南区销售总监)."""
_ACTIVITY = (
    r"跑步|散步|钓鱼|游泳|爬山|骑行|健身|瑜伽|打(?:羽毛|篮|乒乓|网|排|高尔夫)球|踢(?:足)?球|练字|书法|画画|徒步|"
    r"滑雪|露营|摄影|跳舞|广场舞|太极|撸铁|冥想|遛狗|下棋|唱歌|弹(?:钢琴|吉他|尤克里里)"
)

ZH_PATTERNS: tuple[Pattern, ...] = (
    # ── where people live and come from ──────────────────────────────────────────────────
    zh("MOVED_FROM", rf"从{zh_obj_before('搬到|搬去|搬回|搬来|搬走|搬离|调回')}", 0.85, require_mention=True,
       object_type="place", trigger="搬|调回"),
    zh("MOVED_FROM", rf"(?:搬离了?|离开了?){ZH_OBJ}", 0.8, require_mention=True, object_type="place",
       trigger="搬离|离开"),
    zh("COMES_FROM", rf"(?:来自|老家在|老家是|出生在|出生于|生在|长在|老家){ZH_OBJ}", 0.85, require_mention=True,
       object_type="place", trigger="来自|老家|出生|生在|长在"),
    zh("COMES_FROM", r"回(?P<obj>[\u4e00-\u9fff]{2,4}?)老家", 0.8, require_mention=True, object_type="place",
       trigger="老家"),  # 搬回扬州老家
    zh("COMES_FROM", r"是(?P<obj>[\u4e00-\u9fff]{2,4}?)人(?![员家们士])", 0.8, require_mention=True, object_type="place",
       trigger="人"),
    zh("LIVES_IN", rf"(?<!想)(?:住在|家在|定居在?|居住在|搬到了?|搬回了?|搬去了?|搬来了?|住){ZH_OBJ}", require_mention=True,
       object_type="place", trigger="住|家在|定居|搬"),  # not 我想住在回龙观
    # 嘉禾新材总部在宁波, 新地址在滨江区江南大道1888号: where an organisation is
    zh("LIVES_IN", rf"(?<!公司)(?:总部|总公司)(?:设|搬)?(?:在|搬到了?|迁到了?){ZH_OBJ}", 0.8, require_mention=True,
       strict=True, object_type="place", trigger="总部|总公司"),
    zh("LIVES_IN", r"(?:新地址|新办公室)(?:在|是|改成了?|换成了?|搬到了?)(?P<obj>[^，。！？；]{2,30}?"
       r"(?:路|街|道|巷|弄|号|大厦|园区|广场|中心|楼)(?:\d+号?)?(?:[A-Za-z]?座)?(?:\d+(?:楼|层|室))?)(?=[，。！；]|$)", 0.8,
       kind="value", trigger="地址|办公室"),  # a new address said whole (not 收货地址是公司前台, not 在哪)
    zh("VISITED", rf"(?:回了?)(?:一趟|一次|趟)?(?:老家)?{ZH_OBJ}", 0.75, require_mention=True, object_type="place",
       trigger="回"),
    # ── work and study ───────────────────────────────────────────────────────────────────
    zh("LEFT_ORGANISATION", rf"从{zh_obj_before('离职|辞职|退休|跳槽|跳到|出来')}", 0.85, require_mention=True,
       object_type="organisation", trigger="离职|辞职|退休|跳槽|跳到|出来", negatable=False),
    zh("LEFT_ORGANISATION", r"从(?P<obj>[\u4e00-\u9fffA-Za-z]{2,8}?)(?:离职|辞职)", 0.75, kind="entity",
       object_type="organisation", trigger="离职|辞职", negatable=False),  # 从平安离职: what one leaves employs

    zh("WORKS_AT", rf"(?:跳槽到了?|跳槽去了?|跳到了?|跳去了?|加盟了?){ZH_OBJ}", 0.85, require_mention=True,
       object_type="organisation", trigger="跳槽|跳到|跳去|加盟"),
    zh("WORKS_AT", rf"(?:调到了?|调去了?|调往|借调到了?)(?=[^{ZH_STOP}]{{0,8}}(?:分公司|公司|办事处|总部|分部|集团|门店|分行|"
       rf"支行|工厂)){ZH_OBJ}", 0.85, require_mention=True, object_type="organisation",
       trigger="调到|调去|调往"),  # 调到深圳分公司 (a department, 调到了运营部, is MEMBER_OF)
    zh("LEFT_ORGANISATION", rf"(?:已经|早就)?不在(?P<obj>[^{ZH_STOP}上]{{2,10}}?)(?:了|干了|工作了|上班了)", 0.8,
       require_mention=True,
       object_type="organisation", trigger="不在", negatable=False),
    # 她和姐夫都在厦门, 我爸妈一直在老家: being somewhere as a state (a bare 我在上海 may be a trip)
    zh("LIVES_IN", r"(?:都|一直|也都)在(?P<obj>[\u4e00-\u9fffA-Za-z]{2,8}?)(?=[，。！？；,.!?;]|$)", 0.75,
       require_mention=True, strict=True, whole=True, object_type="place", named_subject=True,
       trigger="都在|一直在"),
    # 我表哥三月份要从武汉调去西安了: transferred from one city to another (planned or done)
    zh("LIVES_IN", r"从[\u4e00-\u9fff]{2,4}?调(?:去|到|往)(?P<obj>[\u4e00-\u9fff]{2,4}?)(?=了|[，。！？；]|$)", 0.75,
       require_mention=True, strict=True, whole=True, object_type="place", trigger="调去|调到|调往"),
    zh("LIVES_IN", r"(?:先|还|继续)?留在(?P<obj>[\u4e00-\u9fff]{2,4}?)(?=了|[，。！？；]|$)", 0.7, require_mention=True,
       strict=True, whole=True, object_type="place", named_subject=True, trigger="留在"),  # 表嫂…先留在武汉
    zh("LIVES_IN", rf"在(?P<obj>[^{ZH_STOP}]{{1,8}}?)(?:住了|生活了|(?:待了|呆了)(?=[一二三四五六七八九十两几\d]+多?年)|定居|安家|买了房)", 0.8, require_mention=True,
       object_type="place",
       trigger="住了|生活了|待了|呆了|定居|安家|买了房"),
    zh("LEFT_ORGANISATION", rf"从{_DEPT}(?:调到|调去|转到|换到)", 0.85, kind="entity",
       object_type="organisation", trigger="调到|调去|转到|换到", negatable=False),
    zh("MEMBER_OF", rf"(?<![想要愿])(?:调到|调去|调(?=[\u4e00-\u9fff]{{2,5}}?部(?:去|了|[，。；]|$))|转到|换到|放在|分在|分到|"
       rf"安排在|安排到|转岗(?:去|到)?)了?{_DEPT}", 0.85, kind="entity", named_subject=True,
       object_type="organisation", trigger="调|转到|换到|放在|分在|分到|安排在|安排到|转岗"),
    # 周浩下周一入职，高级测试工程师，放在质量部: the role said alone after joining
    zh("HAS_ROLE", rf"入职[，,](?P<obj>{ZH_ROLE})(?=[，。；！]|$)", 0.8, kind="entity", object_type="role", trigger="入职"),
    # 我下周起转去做渠道了: what one moves on to (not 调去: jieba reads 贺强调去 as 贺 强调, the name lost)
    zh("ASSIGNED_TO", rf"{_MOVES_ON}(?P<obj>[^{ZH_STOP}]{{2,12}}?项目)(?=了|[{ZH_STOP}]|$)", 0.75,
       kind="entity", object_type="project", trigger="转去|改去|转岗|转而"),
    zh("RESPONSIBLE_FOR", rf"{_MOVES_ON}(?P<obj>[^{ZH_STOP}]{{2,8}}?)(?<!项目)(?=了|[{ZH_STOP}]|$)", 0.75,
       kind="value", trigger="转去|改去|转岗|转而"),
    zh("LEFT_ORGANISATION", rf"(?:在|从){_ORG}(?:工作|上班|干)了(?:[一二三四五六七八九十两几\d]+)多?年", 0.75,
       require_mention=True, trigger="工作了|上班了|干了", past="LEFT_ORGANISATION", negatable=False),
    zh("LEFT_ORGANISATION", rf"(?:离开了?|辞掉了?|辞去了?|离职了?){ZH_OBJ}", 0.8, require_mention=True,
       object_type="organisation", trigger="离开|辞掉|辞去|离职", negatable=False),
    # 赵强上周离职了, 我已经辞职了: left, the employer unsaid (the latest one ends). The subject is
    # right before the verb (past-time words between), so 赵强的助理离职了 is not 赵强's leaving.
    zh("LEFT_ORGANISATION", rf"我{_LEFT_SAID}(?P<obj>)(?=[{ZH_STOP}]|$)", 0.75,
       subject="speaker", trigger="离职|辞职|退休", negatable=False, objectless=True),
    zh("LEFT_ORGANISATION", rf"{_PERSON}{_LEFT_SAID}(?P<obj>)(?=[{ZH_STOP}]|$)", 0.75,
       subject="group", subject_type="person", named_subject=True, trigger="离职|辞职|退休", negatable=False,
       objectless=True),
    zh("STUDIES_AT", rf"(?<![现正实存])在(?P<obj>[^{ZH_STOP}]{{1,15}}?)(?:读书|上学|读研|读博|念书|读大学|读|学习|"
       r"念|上课)", trigger="读|上学|念|学习|上课"),
    zh("STUDIES_AT", r"在(?P<obj>[\u4e00-\u9fff]{2,8}(?:小学|中学|大学|学院|学校|幼儿园))(?![\u4e00-\u9fff]*(?:工作|上班))",
       0.85, kind="entity", object_type="organisation", trigger="小学|中学|大学|学院|学校|幼儿园"),
    # 被浙大计算机录取了: admitted to a school, to study a subject there
    zh("STUDIES_AT", r"被(?P<obj>[\u4e00-\u9fff]{1,6}?(?:大学|学院|大|中学|小学))(?:[\u4e00-\u9fff]{2,6}?(?:专业|系)?)?录取",
       0.85, kind="value", trigger="录取"),
    # 考上了南京大学天文系: a school passed into, and the subject of its department
    zh("STUDIES_AT", r"考(?:上|进|到)了?(?P<obj>[\u4e00-\u9fff]{2,8}?(?:大学|学院|中学|小学|高中|一中|二中|附中))", 0.85,
       kind="entity", object_type="organisation", trigger="考上|考进|考到"),
    zh("STUDIES", r"考(?:上|进|到)了?[\u4e00-\u9fff]{2,8}?(?:大学|学院)的?(?P<obj>[\u4e00-\u9fff]{2,6}?)(?:专业|系)", 0.8,
       kind="value", trigger="考上|考进|考到"),
    zh("STUDIES", r"被[\u4e00-\u9fff]{1,6}?(?:大学|学院|大)(?P<obj>[\u4e00-\u9fff]{2,6}?)(?:专业|系)?录取", 0.8,
       kind="value", trigger="录取"),
    zh("STUDIES", r"(?:读|(?<![同上放开大中小数化文科])学|念|主修|攻读)(?!书|研|博|大学|小学|中学|过|了|一|校|生|期|费|历)(?P<obj>[\u4e00-\u9fff]{2,4}?)(?=[，。！？；]|$)",
       0.8, kind="value", trigger="读|学|念|主修|攻读"),
    zh("WORKS_FROM", r"(?<![住待呆睡])在(?P<obj>[\u4e00-\u9fffA-Za-z]{0,6}?(?:办公室|分公司|总部|家|公司|工厂|门店|园区|基地))"
       r"(?:办公|上班|工作)?(?=[，。；！]|$|办公|上班|工作)", 0.8, kind="value",
       trigger="办公室|分公司|总部|家|公司|工厂|门店|园区|基地"),
    zh("WORKS_FROM", r"(?P<obj>远程|居家办公|在家办公|线上办公|远程办公)", 0.8, kind="value",
       trigger="远程|居家办公|在家办公|线上办公"),
    zh("WORKS_AT", rf"(?<![现正实存])在(?P<obj>[^{ZH_STOP}]{{1,15}}?)(?:工作|上班|任职|实习|就职|做|当|干)",
       trigger="工作|上班|任职|实习|就职|做|当|干", require_mention=True, object_type="organisation"),
    # 在一家做跨境电商的小公司当财务经理: an employer described, not named
    zh("WORKS_AT", rf"(?:在|去|到)(?P<obj>一家[^{ZH_STOP}]{{2,15}}?(?:公司|企业|工厂|单位|机构|门店|医院|学校))"
       r"(?:当|做|任|上班|工作|实习)", 0.75, kind="value", trigger="一家"),
    zh("WORKS_AT", rf"(?:去|到)(?P<obj>[^{ZH_STOP}]{{1,15}}?)(?:工作|上班|任职|实习|就职|报到|当(?={ZH_ROLE}))",
       trigger="工作|上班|任职|实习|就职|报到|当", require_mention=True, object_type="organisation"),
    zh("WORKS_AT", r"在(?P<obj>银行|医院|学校|政府|律所|事务所|超市|餐厅|酒店|工厂|国企|外企|央企|大厂|报社|电视台|"
       r"幼儿园|大学|中学|小学|研究所|设计院|警局|派出所|法院)(?:工作|上班|任职|当)", 0.8, kind="value",
       trigger="工作|上班|任职|当"),
    zh("WORKS_AT", rf"(?:就职于|任职于|入职了?|加入了?)(?P<obj>[^{ZH_STOP}]{{1,15}}?)(?=满|[{ZH_STOP}]|了|的|吧|呢|啊|$)", require_mention=True, object_type="organisation",
       trigger="就职于|任职于|入职|加入"),
    zh("WORKS_AT", rf"是(?P<obj>[\u4e00-\u9fffA-Za-z]{{2,10}}?)(?:[\u4e00-\u9fff]{{2,3}}区)?的(?:{ZH_ROLE})",
       0.85, require_mention=True, object_type="organisation", trigger="是"),
    zh("WORKS_AT", rf"(?P<obj>[\u4e00-\u9fffA-Za-z]{{2,8}}?)的(?:{ZH_ROLE}){_PERSON}(?=[说讲表提，。也都在是])",
       0.8, subject="group", subject_type="person", require_mention=True, object_type="organisation",
       trigger="的"),
    # 远洋冷链IT总监孙浩: an organisation, a role, then the person's name
    zh("WORKS_AT", rf"(?P<obj>[\u4e00-\u9fffA-Za-z]{{2,8}}?)(?:的)?(?:[A-Za-z]{{1,4}})?(?:{ZH_ROLE})(?P<subj>"
       rf"[\u4e00-\u9fff]{{2,3}}?)", 0.75, subject="group", subject_type="person", named_subject=True,
       require_mention=True, strict=True, object_type="organisation", trigger="经理|总监|主管|总|负责人|工程师|主任|ceo|cto|cfo|coo|vp|总裁"),
    zh("WORKS_AT", rf"{_NAME_START}(?!他们|我们|你们|对方)(?P<obj>[\u4e00-\u9fffA-Za-z]{{2,8}}?)(?:的(?:新|老)?)?(?P<subj>{ZH_TITLED.pattern})",
       0.8, subject="group", subject_type="person", require_mention=True, strict=True, object_type="organisation",
       trigger=_TITLES),  # 蓝海医疗的何总更喜欢…, 跟绿源农业刘总视频会: a title names the person whatever follows
    zh("WORKS_AT", rf"(?P<obj>[\u4e00-\u9fffA-Za-z]{{2,8}}?)的{_PERSON}(?=[说讲表提告，。也都在是])", 0.75,
       subject="group", subject_type="person", require_mention=True, strict=True, object_type="organisation",
       trigger="的"),
    zh("HAS_ROLE", rf"的(?P<obj>{ZH_ROLE}){_PERSON}(?=[说讲表提，。也都在是])", 0.8, subject="group",
       subject_type="person", kind="entity", object_type="role", trigger="的"),
    zh("LEFT_ROLE", rf"(?:原(?!来|计划|本|定|先|因|价)|前任)(?P<obj>[\u4e00-\u9fff]{{0,4}}?{ZH_ROLE}){_NOT_A_TIME}{_PERSON}(?![的报])", 0.75,
       subject="group", subject_type="person", named_subject=True, kind="entity", object_type="role",
       negatable=False, trigger="原|前任"),  # 原广州组长韦强改任…: the role is the one he held
    # 采购经理赵强说…, 我们的销售总监王磊明天来, 找秘书小钱, 由现任财务经理白露接任: a role before a
    # name the mention finder knows as a person's
    zh("HAS_ROLE", rf"(?:(?:我们|他们|你们|对方|客户|公司)的?|现任|前任|新任|新来的)?(?P<obj>{ZH_ROLE}){_NOT_A_TIME}{_PERSON}"
       r"(?![的报])", 0.75, subject="group",
       subject_type="person", named_subject=True, kind="entity", object_type="role"),
    zh("HAS_ROLE", rf"(?:新来的|我们的|公司的)?(?P<obj>实习生|新同事|助理|经理|总监){_PERSON}(?=跟|和|在|是|负责|，)",
       0.75, subject="group", subject_type="person", kind="entity", object_type="role",
       trigger="实习生|新同事|助理|经理|总监"),
    zh("RESPONSIBLE_FOR", r"(?P<obj>[\u4e00-\u9fff]{2}区)的(?![^，。！？；]*由)", 0.75, kind="value", trigger="区的",
       stop="UNASSIGNED_FROM"),
    zh("RESPONSIBLE_FOR", r"(?:^|(?<=[，。；：]))(?!以后|今后|之后|现在|目前|后面|接下来)(?P<obj>[\u4e00-\u9fff]{2,8}?)(?:这块|这边|这部分|这一块)(?:还是|也|都|仍然|继续|以后|一直)?"
       r"(?:是|由)?我(?:来)?(?:负责|管|跟)", 0.8, subject="speaker", kind="value", trigger="这块|这边|这部分|这一块"),
    zh("RESPONSIBLE_FOR", r"(?P<obj>[\u4e00-\u9fff]{2}区)的[^，。！？；]{0,10}由我", 0.75, subject="speaker", kind="value",
       trigger="由我", stop="UNASSIGNED_FROM"),  # "华北区的部分由我负责": mine, whoever an earlier clause names
    zh("HAS_ROLE", rf"(?:我是|是|担任|作为|当了?|升为|升任|成为)(?:一名|一个|一位|公司的|我们的|[\u4e00-\u9fffA-Za-z]{{2,10}}?的)?"
       rf"(?P<obj>{_TEAM_ROLE})", trigger="是|担任|作为|当|升|成为",
       kind="entity", object_type="role", stop="LEFT_ROLE"),  # 架构组组长: the team's role, whole
    zh("HAS_ROLE", r"(?:是)?做(?P<obj>设计|销售|财务|会计|编程|开发|运营|市场|产品|人事|法务|翻译|客服)的", 0.75,
       kind="entity", object_type="role", trigger="做"),
    zh("HAS_ROLE", rf"(?:做|当|干)(?:了)?(?:一名|一个|一位)?(?P<obj>{ZH_ROLE})", 0.8, kind="entity",
       object_type="role", trigger="做|当|干", stop="LEFT_ROLE"),
    zh("HAS_ROLE", rf"{_PERSON}(?:出任|改任|转任|升任|任)(?P<obj>{_TEAM_ROLE})", 0.8, subject="group",
       subject_type="person", named_subject=True, kind="entity", object_type="role", trigger="任"),  # 单丽娜任总经理
    zh("HAS_ROLE", rf"(?:^|(?<=[，,]))(?:出任|改任|转任|任)(?P<obj>{_TEAM_ROLE})",
       0.8, kind="entity", object_type="role", trigger="任", stop="LEFT_ROLE"),  # …调到产品部，任高级产品经理
    zh("LEFT_ROLE", rf"(?:不再(?:担任|兼任)|卸任|辞去了?|不当)(?P<obj>{ZH_ROLE})", 0.85, kind="entity",
       object_type="role", trigger="不再担任|不再兼任|卸任|辞去|不当", negatable=False),
    zh("HAS_ROLE", rf"(?:原|前)?(?P<obj>{_TEAM_ROLE})一职由{_PERSON}(?:来)?(?:接任|接替|担任)", 0.8, subject="group",
       subject_type="person", named_subject=True, kind="entity", object_type="role", trigger="一职"),
    # 不再兼任质量经理了，由郝亮接任: the one taking over holds the role the sentence named
    zh("HAS_ROLE", rf"由{_PERSON}(?:来)?(?:接任|接替)(?P<obj>)(?=[，。！？；]|$)", 0.75, subject="group",
       subject_type="person", named_subject=True, kind="entity", object_type="role", antecedent=True,
       negatable=False, trigger="接任|接替"),
    zh("HAS_ROLE", rf"(?:我们|我的|公司的|部门的|我们的|我们公司的|我们部门的)?(?P<obj>{ZH_ROLE}|领导)是{_PERSON}(?=[，。！？；]|$)",
       0.8, subject="group", subject_type="person", kind="entity", object_type="role", trigger="是"),
    zh("REPORTS_TO", rf"向(?:{ZH_ROLE})?{_NOT_A_ROLE}(?P<obj>他|她|[\u4e00-\u9fff]{{2,4}}?|[A-Z][a-z]+)汇报", 0.85,
       kind="entity", object_type="person", trigger="汇报"),
    zh("HAS_ROLE", rf"向(?P<obj>{ZH_ROLE}){_NOT_A_ROLE}{_PERSON}汇报", 0.8, subject="group", subject_type="person",
       named_subject=True, kind="entity", object_type="role", trigger="汇报"),  # 向CTO王磊汇报
    zh("REPORTS_TO", rf"(?:汇报给|汇报对象(?:是|变成了?|换成了?|改成了?)|(?:上级|领导|老板|上司)(?:是|变成了?|换成了?)|"
       rf"(?:直属领导|直属上级|顶头上司|直属老板)(?:是)?){ZH_NAME}",
       0.85, kind="entity", object_type="person", trigger="汇报|上级|领导|老板|上司"),
    zh("UNASSIGNED_FROM", r"(?P<obj>)(?:退出|撤出|不管了|不做了|不跟了)", 0.75, kind="entity",
       object_type="project", antecedent=True, trigger="退出|撤出|不管了|不做了|不跟了", negatable=False),
    zh("ASSIGNED_TO", rf"(?:被?分到了?|被?分配到了?|调到了?|派到了?|接手了?|加入了?|转到了?|"
       rf"(?:跟|和)我一起做|一起做|参与了?|负责){ZH_OBJ}", 0.85, kind="entity", object_type="project",
       require_mention=True, trigger="分到|分配到|调到|派到|接手|加入|转到|一起做|参与|负责", stop="UNASSIGNED_FROM"),
    zh("ASSIGNED_TO", rf"(?P<obj>[\u4e00-\u9fffA-Za-z0-9]{{2,12}}项目)(?:其实|现在|目前|一直|实际上)?(?:由|交给|归|是)"
       rf"{_PERSON}(?:在|来)?(?:牵头|负责|跟进|主导|"
       r"对接|接手|管)", 0.8, subject="group", subject_type="person", kind="entity", object_type="project",
       trigger="牵头|负责|跟进|主导|对接|接手|管"),
    # "华北区的客户都由陈静对接": the one after 由 is responsible, not the speaker (a named project: above).
    zh("RESPONSIBLE_FOR", rf"(?!以后|之后|后面|今后|现在|目前)(?P<obj>[\u4e00-\u9fffA-Za-z0-9]{{2,12}}?)(?:(?:这个|那个|这些|那些)(?:客户|项目)?)?(?:现在|目前|其实|"
       rf"一直|实际上|暂时|都|全部|以后|之后|后面|今后)?(?:改)?由{_PERSON}(?:来)?(?:负责|牵头|跟进|主导|对接|管|维护|处理|"
       rf"接手|带)", 0.8, subject="group", subject_type="person", kind="value", trigger="由"),
    # 数据平台组以后归刘振宇管: a team goes to someone who runs it
    zh("MANAGES", rf"(?:^|(?<=[，,；;：:]))(?P<obj>[\u4e00-\u9fffA-Za-z0-9]{{2,10}}?(?:组|团队|中心|小组))(?:以后|现在|暂时|都)?"
       rf"(?:归|由){_PERSON}(?:来)?(?:管|带|负责)(?=[，。！；了]|$)", 0.8, subject="group", subject_type="person",
       named_subject=True, kind="value", trigger="归|由"),
    # 小程序改版那摊事以后叶琳来跟, 华北大区归我管: who takes something on, said after it
    zh("RESPONSIBLE_FOR", rf"(?:^|(?<=[，,；;：:]))(?P<obj>[\u4e00-\u9fffA-Za-z0-9]{{2,12}}?)(?:那摊事|这摊事|这块|那块)?(?:以后|之后|后面|今后|"
       rf"现在)?(?:都)?{_PERSON}来(?:跟|管|负责|对接|维护)(?=[，。！？；了进]|$)", 0.75, subject="group", subject_type="person",
       named_subject=True, kind="value", trigger="来跟|来管|来负责|来对接|来维护"),
    # 华东区大客户从7月1号起由我来跟: the speaker takes it on (from whoever held it, speaker.handed_over_by)
    zh("RESPONSIBLE_FOR", r"(?:^|(?<=[，,；;：:]))(?!谁|另外|还有|然后|同时|此外|而且|以后|如果|要是|假如|具体)"
       r"(?P<obj>(?:(?!打算|本来|原本)[\u4e00-\u9fffA-Za-z0-9]){2,12}?)(?:这个|那个|这些|那些)?(?:(?<!大)客户|项目)?"
       r"(?:从[^，。！？；]{1,10}?(?:起|开始)|以后|之后|今后|现在|目前|暂时)?(?:都|全部)?(?:改)?由我(?:来)?"
       r"(?:负责|牵头|跟进?|对接|管|接手|带|维护)(?=[，。！；了]|$)", 0.75, subject="speaker", kind="value", handover=True,
       supposable=True, trigger="由我"),
    zh("RESPONSIBLE_FOR", rf"(?:^|(?<=[，,；;：:]))(?!谁)(?:[^，。！？；]{{0,6}}?{_HELD})?(?P<obj>[\u4e00-\u9fffA-Za-z0-9]{{2,12}}?)(?:都|现在|以后)?归我管"
       r"(?!了?[？?吗])", 0.75, subject="speaker",
       kind="value", trigger="归我管"),
    # …项目先交给我, 产线排班以后归我: the speaker takes it on
    zh("RESPONSIBLE_FOR", rf"(?:^|(?<=[，,；;：:]))(?!谁)(?:[^，。！？；]{{0,6}}?(?:手上的?|手头的?|{_HELD}))?(?P<obj>[\u4e00-\u9fffA-Za-z0-9]{{2,12}}?)"
       rf"(?:这|那)?(?:个|些)?(?:项目|客户)?(?:以后|之后|暂时|先|都|全部)?(?:交给|转给|归)我{_TAKES_ON}(?!了?[？?吗])", 0.75,
       subject="speaker", kind="value", negatable=False, handover=True, trigger="交给我|转给我|归我"),
    # 客户先这么分：康泰医疗给小贺，华信证券给老周 — a customer handed to a colleague, one per clause
    zh("RESPONSIBLE_FOR", rf"(?:^|(?<=[，,；;：:]))(?P<obj>[\u4e00-\u9fffA-Za-z0-9]{{2,10}}?)(?:先|都|暂时)?(?:给|归){_PERSON}"
       rf"(?=[，。！；]|$)", 0.7, subject="group", subject_type="person", named_subject=True, kind="entity",
       object_type="organisation", require_mention=True, strict=True, handover=True, trigger="给|归"),
    zh("RESPONSIBLE_FOR", rf"(?:负责(?!人(?![事力才员工]))|改管|分管|主管|接管|接手|跟进)(?P<obj>[^{ZH_STOP}]{{1,15}}?)"
       r"(?=[，。！？；,.!?;、\s：:]|了|吧|呢|啊|以后|之后|归|交给|由|$)", 0.8, kind="value",
       trigger="负责|改管|分管|主管|接管|接手|跟进", stop="UNASSIGNED_FROM"),
    zh("RESPONSIBLE_FOR", rf"(?:手上的|手头的|我的|我们的|{_HELD})?(?P<obj>[\u4e00-\u9fff]{{2,6}}?(?:[和、][\u4e00-\u9fff]{{2,6}}?)*)"
       rf"(?:(?:这|那)(?:[两三四五几]个|些)(?:客户|项目|账号|单子)?)?"
       rf"(?:暂时|先|都|全部)?(?:交给|转给|移交给|交接给){_PERSON}{_TAKES_ON}", 0.8, subject="group",
       subject_type="person", kind="value", split=True, handover=True, trigger="交给|转给|移交给|交接给"),
    # ── money, dates and deals ───────────────────────────────────────────────────────────
    zh("BUDGET", rf"预算[^。！？；]{{0,10}}?{ZH_AMOUNT}", subject="topic", kind="amount", trigger="预算"),
    zh("BUDGET", rf"{ZH_AMOUNT}的预算", subject="topic", kind="amount", trigger="预算"),
    zh("PRICE", rf"(?:价格|报价|报的(?!不是)|售价|单价|价钱|续约价|续费|价|金额|合同额|总价|总额|年费|月费|服务费|费用|授权费)"
       rf"[^，。！？；]{{0,8}}?{ZH_AMOUNT}", 0.85, subject="topic", kind="amount", trigger="价|续费|金额|合同额|总额|费|报的"),
    zh("PRICE", rf"(?:每年|每月|每个|每台|每套|每份|一年|一个月|一台|一套)(?:是|要|收)?{ZH_AMOUNT}",
       0.85, subject="topic", kind="amount", trigger="每年|每月|每个|每台|每套|每份|一年|一个月|一台|一套"),
    zh("DISCOUNT", r"(?:打了?|按)(?P<obj>[一二三四五六七八九][一二三四五六七八九]?折|\d(?:\.\d)?折)", 0.85, subject="topic", kind="value",
       trigger="折"),
    zh("QUANTITY", r"(?<![\d元块钱])(?<!到了)(?P<obj>\d+|[一二三四五六七八九十百千万两]+)(?:台|套|个(?![月钟多小星])|件|份|箱|张|部|块|支|辆|把|袋|吨|瓶|盒|包|桶|双|片)", 0.8,
       subject="topic", kind="number", trigger="台|套|个|件|份|箱|张|部|块|支|辆|把|袋|吨|瓶|盒|包|桶|双|片"),
    zh("PAID", rf"(?:首付款|尾款|货款|款项|付款|预付款|定金|订金|回款|笔款)(?:的)?{ZH_AMOUNT}(?:元)?[^，。！？；]{{0,5}}?"
       r"(?:到账|付了|收到|付清)",
       0.85, subject="topic", kind="amount", trigger="到账|付了|收到|付清"),
    zh("PAID", rf"(?:已经|已)?(?:付了|支付了|收到了?)[^，。！？；]{{0,6}}?{ZH_AMOUNT}", 0.8, subject="topic",
       kind="amount", trigger="付了|支付了|收到"),
    zh("DEADLINE", rf"(?:截止(?:日期|时间)?(?:(?:提前|推迟|延后|延期|改|调整)?(?:是|为|到|在|至))?|最晚|最迟|期限是)"
       rf"{ZH_DATE}", 0.85, subject="topic",
       kind="date", trigger="截止|最晚|最迟|期限"),
    zh("DEADLINE", rf"(?<=项目|一期|二期|三期|工程|系统|订单|合同)(?:预计|计划|要在|将在|会在){ZH_DATE}(?:前)?"
       r"(?:交付|交货|完工|完成|验收)", 0.8, subject="topic", kind="date",
       trigger="交付|交货|完工|完成|验收"),  # 深圳仓储项目二期预计6月底交付: a project's date
    zh("DEADLINE", rf"{ZH_DATE}(?:之前|以前|前)(?:要|必须|需要|得|务必)?(?:全部|全|都)?(?:交付|提交|完成|交货|交|开通|上线|"
       r"拿到|签|发|给|到位|搞定|确认|回复|付款|部署|验收|到货|发货|装完|送到|补齐|寄出|送达)(?!不)", 0.85, subject="topic",
       kind="date", trigger="前"),
    # 上线从9月20号推到10月25号: a launch moved (before the deadlines below, which would take its date)
    zh("LAUNCH_DATE", rf"(?:上线|发布|投产)(?:时间|日期)?[^。；！]{{0,16}}?(?:{_MOVED_TO}|改到)了?{ZH_DATE}",
       0.8, subject="topic", kind="date", trigger="上线|发布|投产"),
    # 预计本周六送达, 得延到下周三才能发, POC延期到6月28号: a delivery or a piece of work's new date
    zh("DEADLINE", rf"(?:预计|将于|将在|计划|会在|要在)(?:于|在)?{ZH_DATE}(?:送达|到货|补齐|寄出|发出|交货|交付|发货)(?!不)",
       0.8, subject="topic", kind="date", named_topic=True, supposable=True,
       trigger="送达|到货|补齐|寄出|发出|交货|交付|发货"),
    zh("DEADLINE", rf"(?:货|那批|这批|订单|交付|交货|到货|发货|POC|工期|交期)[^，。；！]{{0,12}}?(?:{_MOVED_TO})了?"
       rf"{ZH_DATE}(?:[，。；！]|$|才|再)", 0.75, subject="topic", kind="date", named_topic=True, supposable=True,
       trigger=_MOVED_TO),
    zh("DEADLINE", rf"(?:交期|交货期|到货时间|发货时间)(?:是|为|定在|在)?(?=[^，。；]*?[月号日底初])(?!\d+[天周])"
       rf"{ZH_DATE}", 0.85, subject="topic", kind="date",
       trigger="交期|交货期|到货时间|发货时间"),
    zh("LAUNCH_DATE", rf"(?:将于|将在|预计|计划|定于|会在|在)?{ZH_DATE}(?:正式)?(?:上线|发布|推出|投产|开业|启动)",
       0.85, subject="topic", kind="date", trigger="上线|发布|推出|投产|开业|启动"),
    zh("EXPIRES_ON", rf"{ZH_DATE}(?:到期|截止|结束)", 0.8, subject="topic", kind="date",
       trigger="到期|截止|结束"),
    zh("MEETING_AT", rf"(?:会议|开会|见面|会面|碰头|例会)(?:时间)?(?:是|定在|安排在|改到|改在|在){ZH_DATE}", 0.8,
       subject="topic", kind="date", trigger="会议|开会|见面|会面|碰头|例会"),
    zh("MEETING_AT", rf"{ZH_DATE}(?:[^，。！？；]{{0,16}}?)(?:开会|见面|碰头|开个会|会面|面谈|开例会|过一下|对一下|"
       r"视频会议|电话会议|线上会议|开视频会|会议(?!室)|约了|拜访)",
       0.8, subject="topic", kind="date",
       trigger="开会|见面|碰头|开个会|会面|面谈|例会|过一下|对一下|会议|视频会|约了|拜访"),
    zh("MEETING_AT", rf"{ZH_DATE}(?:[^，。！？；]{{0,10}}?)做(?P<subj>[\u4e00-\u9fff]{{2,6}}?(?:复盘|评审|培训|汇报|"
       r"述职|总结会|周会|月会))", 0.8, subject="group", subject_type="event", kind="date",
       trigger="复盘|评审|培训|汇报|述职|总结会|周会|月会"),
    zh("ORDERED", r"订单[^。]{0,30}?(?:\d+|[一二三四五六七八九十百千两]+)(?:台|套|个|件|份|箱)(?P<obj>[A-Za-z0-9\u4e00-\u9fff]{2,10}?)(?=[，。：；、]|$)",
       0.85, subject="topic", require_mention=True, object_type="product", trigger="订单"),
    # An order line, "订单JH-0108：血糖仪G5一共500台": the customer the sentence names ordered the product
    zh("ORDERED", rf"(?:订单|补单|单号|[A-Z]{{2,6}}-\d{{3,}})[^。！？]{{0,12}}?[：:]\s*(?P<obj>[A-Za-z\u4e00-\u9fff]"
       rf"[A-Za-z0-9\u4e00-\u9fff ]{{1,14}}?)(?:一共|共|要|订|各)?{_COUNT}", 0.8, subject="topic", kind="entity",
       object_type="product", trigger="：|:"),
    zh("ORDERED", r"(?:下单了?|下了一单|追加了一单|订了|订购了?|采购了)(?:[^，。！？；]{0,3}?"
       r"(?:\d+|[一二三四五六七八九十百千两]+)(?:台|套|个|件|份|箱|张|把|袋|吨|瓶|盒|包|桶|双))?"
       r"(?P<obj>[A-Za-z0-9\u4e00-\u9fff]{2,10}?)(?=[，。：；、]|$|账号|许可|授权)",
       0.8, kind="entity", object_type="product", trigger="下单|一单|订了|订购|采购了"),
    zh("ORDERED", r"追加了一单[:：](?:\d+|[一二三四五六七八九十百千两]+)(?:台|套|个|件|份|箱|张)(?P<obj>[A-Za-z0-9\u4e00-\u9fff]{2,10}?)(?=[，。；、]|$)",
       0.8, require_mention=True, object_type="product", trigger="追加"),
    zh("CANCELLED", rf"(?:取消了?|撤销了?|作废了?)(?P<obj>{_ORDER_ID})(?=这单|那单|[，。！？；（(]|$)", 0.85,
       kind="value", trigger="取消|撤销|作废", negatable=False),  # 启明教育取消了QM-0722这单（80套…）
    zh("CANCELLED", rf"(?:取消了?|撤销了?|作废了?|终止了?)(?:上个月的|之前的|那笔|这笔|那个|这个)?(?:订单|合同|合作)?{ZH_OBJ_LONG}",
       0.85, kind="value",
       trigger="取消|撤销|作废|终止", negatable=False),
    zh("CANCELLED", rf"(?<!差点)(?<!险些)(?<!要不要)(?<!别)把(?P<obj>{_ORDER_ID}|[\u4e00-\u9fff]{{0,8}}?(?:订单|单子|合同))"
       r"(?:这单|那单)?(?:给)?(?:撤了|撤掉了|砍掉了|砍了)(?![？?吗])", 0.8, kind="value", trigger="撤|砍", supposable=True),
    # 光明乳业把DJ-0612撤了 (an order or an id: 把消息撤回了 cancels nothing)
    zh("CANCELLED", rf"(?P<obj>{_ORDER_ID})(?:这单|订单|合同)?(?:直接|已经|已|也)?(?:作废|取消|撤销)了?", 0.8,
       kind="value", trigger="作废|取消|撤销", negatable=False),  # 合同KD-2406直接作废
    zh("STATUS", r"(?<!建议)(?<!考虑)(?<!打算)(?<!是否)(?<!要不要)(?:决定|已经|宣布|临时)?(?P<obj>暂停(?:采购|合作|项目|发货|付款)?|停止(?:采购|合作|发货)|终止合作|延期|"
       r"搁置|上线了|完成了|验收了|签约了|结项了|流产了)", 0.75, subject="topic", kind="value",
       trigger="暂停|停止|终止|延期|搁置|上线了|完成了|验收了|签约了|结项了|流产了"),
    zh("STATUS", r"休(?P<obj>产假|病假|年假|婚假|陪产假|育儿假)", 0.8, kind="value", trigger="假"),
    zh("STATUS", r"(?P<obj>转正|升职)了", 0.8, kind="value", named_subject=True, trigger="转正|升职"),  # 小宋转正了
    zh("STATUS", r"(?<!不)(?<!没)(?<!想)(?P<obj>退休)(?![金工费年龄])", 0.8, kind="value", trigger="退休", supposable=True),
    zh("STATUS", rf"状态(?:是|为|变成了?|改成了?|更新为){ZH_OBJ}", 0.8, subject="topic", kind="value", trigger="状态"),
    zh("HAS_ISSUE", rf"(?:经常|总是|老是|又|一直|偶尔|频繁)?(?P<obj>{_ISSUES})", 0.75, subject="topic", kind="value",
       trigger=_ISSUES),
    zh("USES", rf"(?:反映|反馈|投诉|说)(?P<obj>[A-Za-z0-9\u4e00-\u9fff]{{2,10}}?)(?:经常|总是|老是|又|一直|偶尔|频繁)?"
       rf"(?:{_ISSUES})", 0.75, require_mention=True, object_type="product",
       trigger="反映|反馈|投诉|说"),
    zh("CONTACT", rf"(?:对接人|联系人|负责人|决策人)(?:从[^，。]{{1,10}}?)?(?:换成了?|变成了?|改成了?|还是|是|为){_CONTACT_NAME}", 0.85,
       subject="topic", kind="entity", object_type="person", trigger="对接人|联系人|负责人|决策人"),
    # 对接人不是刘经理了，换成新来的采购总监Emily Zhou; 他们业务员换成了小蒋; 对接的还是陈会计
    zh("CONTACT", rf"(?:对接人|联系人)[^。；]{{0,12}}?[，,](?:现在)?(?:换成了?|变成了?|改成了?){_CONTACT_NAME}", 0.85,
       subject="topic", kind="entity", object_type="person", require_mention=True, trigger="对接人|联系人"),
    zh("CONTACT", rf"(?:业务员|客户经理|销售代表)(?:换成了?|变成了?|改成了?){_CONTACT_NAME}", 0.8, subject="topic",
       kind="entity", object_type="person", require_mention=True, trigger="业务员|客户经理|销售代表"),
    zh("CONTACT", rf"(?<!原来)(?<!之前)(?<!以前)(?<!这边)(?<!我们)(?<!我方)(?<!我)对接的(?:还是|是|换成了?|变成了?)?{_CONTACT_NAME}", 0.8,
       subject="topic", kind="entity", object_type="person", require_mention=True, trigger="对接的"),
    zh("CONTACT", rf"(?:联系人|对接人|决策人)[:：]\s?{_CONTACT_NAME}", 0.8, subject="topic", kind="entity",
       object_type="person", require_mention=True, trigger="联系人|对接人|决策人"),  # 客户：X｜联系人：副校长 冼志明
    # 蓝鲸那边以后找他们采购主管祝晓燕, 对账以后找他们新来的会计滕飞: whom to go to at the organisation
    zh("CONTACT", rf"(?:以后|今后|之后|往后|后续|日常对接|对接)[^，。；！]{{0,10}}?(?:直接|都|就)?找(?=他们|对方){_CONTACT_NAME}", 0.8,
       subject="topic", kind="entity", object_type="person", require_mention=True, trigger="找"),
    # 现在由行政部的邵斌跟我们对接: the organisation's contact, of a department
    zh("CONTACT", rf"由(?:[\u4e00-\u9fff]{{2,5}}部的)?{_CONTACT_NAME}(?:来)?(?:跟|和|与)?(?:我们|我方)?(?:对接|联系)", 0.8,
       subject="topic", kind="entity", object_type="person", require_mention=True, trigger="对接|联系"),
    # 我叫卢凯，安顺快运的运营总监: a speaker introducing themselves
    zh("WORKS_AT", rf"我(?:叫|是)[\u4e00-\u9fff]{{2,3}}[，,](?P<obj>[\u4e00-\u9fffA-Za-z]{{2,10}}?)的(?:{ZH_ROLE})", 0.85,
       subject="speaker", require_mention=True, object_type="organisation", trigger="我叫|我是"),
    zh("HAS_ROLE", rf"我(?:叫|是)[\u4e00-\u9fff]{{2,3}}[，,][\u4e00-\u9fffA-Za-z]{{2,10}}?的(?P<obj>{ZH_ROLE})", 0.85,
       subject="speaker", kind="entity", object_type="role", trigger="我叫|我是"),
    zh("HAS_ROLE", rf"(?:^|(?<=[，。：；！起]))(?P<obj>{_TEAM_ROLE})(?:一职)?由我(?:来)?(?:接任|接替|担任)", 0.85, subject="speaker", kind="entity",
       object_type="role", trigger="由我"),
    # a CRM record's fields: 客户：同舟医药连锁｜决策人：运营副总裁霍建平｜现用：金蝶云星空
    zh("HAS_ROLE", rf"(?:决策人|负责人|联系人|对接人)[:：](?P<obj>{ZH_ROLE})\s?{_PERSON}(?=[｜|，。；\s]|$)", 0.8,
       subject="group", subject_type="person", kind="entity", object_type="role", trigger="人"),
    zh("WORKS_AT", rf"(?:决策人|负责人|联系人|对接人)[:：](?:{ZH_ROLE}\s?)?{_PERSON}(?P<obj>)(?=[｜|，。；\s]|$)", 0.75,
       subject="group", subject_type="person", kind="entity", object_type="organisation", antecedent=True,
       trigger="人"),
    zh("USES", r"(?:现用|在用|目前使用|现有系统)[:：](?P<obj>[^｜|，。；\s]{2,15})", 0.8, subject="topic", kind="value",
       trigger="现用|在用|目前使用|现有系统"),
    # 他们IT部的吕经理, 他们CMO林峰: someone of the organisation the message is about
    zh("WORKS_AT", rf"(?:他们|对方)(?:公司|那边)?的?(?:[A-Za-z]{{1,4}}[部科处组]?|[\u4e00-\u9fff]{{1,4}}?[部科处组])?的?{_CONTACT_NAME}",
       0.75, subject="topic", inverse=True, kind="entity", object_type="person", require_mention=True, strict=True,
       trigger="他们|对方"),
    zh("EMAIL", r"(?:邮箱|邮件地址|email|Email|E-mail)[^，。@\w]{0,2}(?:是|：|:|发到|换成了?|改成了?|变成了?)?\s?"
       rf"(?P<obj>{EMAIL_ADDRESS})", kind="email",
       trigger="邮箱|邮件|email|e-mail"),
    # 联系我司物流专员董芳，电话021-58827731: the number of the person just named
    zh("PHONE", rf"{_PERSON}[，,]?(?:的)?(?:手机号?码?|电话号?码?|座机|微信号?)(?:是|：|:)?\s?"
       r"(?!400|800|95\d)(?P<obj>\+?\d[\d\s-]{6,16}\d)", 0.85, subject="group", subject_type="person",
       named_subject=True, kind="phone", trigger="手机|电话|座机|微信"),
    zh("PHONE", r"(?<!客服)(?<!热线)(?<!服务)(?:手机号?码?|电话号?码?|座机|号码|新号|联系方式|微信号?)(?:是|：|:|换成了?|改成了?)?\s?"
       r"(?!400|800|95\d)(?P<obj>\+?\d[\d\s-]{6,16}\d)", 0.85, kind="phone",
       trigger="手机|电话|座机|号码|新号|联系方式|微信"),
    # ── tastes and habits ────────────────────────────────────────────────────────────────
    zh("PREFERS", rf"最喜欢的[\u4e00-\u9fff]{{1,5}}?是{ZH_OBJ}", 0.85, kind="value", trigger="最喜欢的"),
    zh("PREFERS", rf"(?:最喜欢|最爱)(?:吃|喝|玩|看|听)?{ZH_OBJ}", 0.85, kind="value", trigger="最喜欢|最爱"),
    zh("PREFERS", rf"(?:更喜欢|偏好|倾向于|首选|更愿意|比较喜欢){ZH_OBJ}", kind="value",
       trigger="更喜欢|偏好|倾向于|首选|更愿意|比较喜欢"),
    zh("PREFERS", r"(?:一般|通常|平时一般|基本上|大多)(?!就?(?:打车|打的|坐|骑|搭|乘|开车))(?P<obj>(?:自己)?[\u4e00-\u9fff]{2,6}?)(?=[，。；！]|$)", 0.7,
       kind="value", trigger="一般|通常|基本上|大多"),
    zh("LIKES", rf"(?:偶像是|最崇拜|崇拜){ZH_OBJ}", 0.8, kind="value", trigger="偶像|崇拜"),
    zh("LIKES", rf"(?:很|特别|非常|超|挺|真|也|就)?爱(?P<obj>[打玩看听跑游做吃喝逛唱跳画写读弹][^{ZH_STOP}]{{1,8}}?)"
       rf"(?=[{ZH_STOP}]|了|的|吧|呢|啊|$)", 0.8, kind="value", negated="DISLIKES", trigger="爱"),
    zh("DISLIKES", rf"(?:讨厌|不喜欢|反感|最烦|烦透了|看不惯|不爱)(?P<obj>[^{ZH_STOP}]{{0,15}}?)"
       rf"(?=[{ZH_STOP}]|了|的|吧|呢|啊|$)", 0.85, kind="value", antecedent=True, negatable=False,
       trigger="讨厌|不喜欢|反感|最烦|烦透|看不惯|不爱"),
    zh("DISLIKES", rf"(?:受不了|接受不了|忍不了){ZH_OBJ}", 0.8, kind="value", negatable=False, antecedent=True,
       trigger="受不了|接受不了|忍不了"),  # 她最爱榴莲，我是闻都受不了😂: the durian
    zh("DISLIKES", r"(?<!胃)(?<!身体)(?<!肚子)(?:受不了|接受不了|忍不了)(?P<obj>)(?=[，。！？；~～…]|$)", 0.8, kind="value",
       negatable=False,
       antecedent=True, trigger="受不了|接受不了|忍不了"),
    zh("STOPPED_USING", rf"(?:停用了?|换掉了?|卸载了?|删掉了?|注销了?|退订了?|戒掉了?|戒了)(?P<obj>[^{ZH_STOP}]{{0,15}}?)"
       rf"(?=[{ZH_STOP}]|了|吧|呢|啊|$)", 0.85, kind="value", antecedent=True, negatable=False,
       trigger="停用|换掉|卸载|删掉|注销|退订|戒"),
    # 钢琴学了两年还是放弃了: what one gave up, said first
    zh("STOPPED_USING", r"(?:^|(?<=[，。；]))(?P<obj>[\u4e00-\u9fff]{2,4}?)(?:学了|练了|弹了|玩了|坚持了|跑了)[^，。！？；]{0,6}?"
       r"(?:还是|最后|终于|就)?放弃了", 0.8, kind="value", negatable=False, trigger="放弃了"),
    zh("STOPPED_USING", rf"把{zh_obj_before('卸载|删|删掉|停用|注销|退订|戒')}", 0.85, kind="value", negatable=False,
       trigger="卸载|删|停用|注销|退订|戒"),
    zh("STOPPED_USING", rf"(?:不再|已经不|再也不|不)(?:在|上){_NOT}{{0,2}}?(?P<obj>[^{ZH_STOP}]{{2,8}}?)上"
       rf"(?:发|看|买|玩|用|刷|写)", 0.8, kind="value", negatable=False, trigger="不"),
    zh("STOPPED_USING", rf"从{zh_obj_before('换成|换到|改用|迁移到|切换到|切到|转到')}", 0.85, require_mention=True,
       negatable=False, object_type="product", trigger="换成|换到|改用|迁移到|切换到|切到|转到"),
    # a tool given up for another or stopped: 把企业微信换成了飞书, 把Trello停了, Jira我们不用了,
    # 以前用安卓，上个月换成了iPhone (the one switched to is USES, below)
    zh("STOPPED_USING", rf"把{zh_obj_before('换成|换为|替换成|替换为|迁移到|迁到|停(?=了|掉)')}(?![^，。！？；]*(?:格式|界面|模式|版本))",
       0.85, require_mention=True, whole=True, negatable=False, object_type="product", trigger="把"),
    zh("STOPPED_USING", r"(?:^|(?<=[，,；;]))(?P<obj>[A-Za-z][A-Za-z0-9.+-]{1,20}|[\u4e00-\u9fff]{2,8}?)"
       r"(?:我们组|我们部门|我们团队|我们|我)(?:已经|早就|现在|基本上?|都|也|再也)*(?:不再|不)用了(?![？?吗解])", 0.8,
       require_mention=True, whole=True, negatable=False, object_type="product", subject="speaker", trigger="用了"),
    zh("STOPPED_USING", r"(?:^|(?<=[，,；;]))(?P<obj>[A-Za-z][A-Za-z0-9.+-]{1,20}|[\u4e00-\u9fff]{2,8}?)(?:我们|我)?(?:已经|早就)?"
       r"(?:卸了|卸载了|删了|注销了|退了)", 0.8, require_mention=True, whole=True, negatable=False,
       object_type="product", subject="speaker", trigger="卸了|卸载了|删了|注销了|退了"),  # 小红书我卸了
    # 酒和甜食都已经戒了: what is given up said first
    zh("STOPPED_USING", r"(?:^|(?<=[，,；;]))(?P<obj>(?:(?!我)[\u4e00-\u9fff]){1,4}?(?:[和、跟](?:(?!我)[\u4e00-\u9fff]){1,4}?)*)"
       r"(?:他|她)?(?:都|也|全|全都)?(?:已经|早就)?(?:戒了|戒掉了)", 0.8, kind="value", split=True,
       negatable=False, trigger="戒了|戒掉了"),
    zh("STOPPED_USING", r"(?:^|(?<=[，,；;]))(?P<obj>[\u4e00-\u9fff]{1,4}?(?:[和、跟][\u4e00-\u9fff]{1,4}?)*)"
       r"(?:我们|我)(?:都|也|全|全都)?(?:已经|早就)?(?:戒了|戒掉了)", 0.8, subject="speaker", kind="value", split=True,
       negatable=False, trigger="戒了|戒掉了"),  # 跟大家汇报下，烟我已经戒了: mine, whoever the first clause names
    # 健身卡到期没续, 到期就不续了: a subscription let lapse
    zh("STOPPED_USING", r"(?:^|(?<=[，,；;：:]))(?P<obj>(?:(?!的)[\u4e00-\u9fffA-Za-z0-9]){0,8}?)(?:到期)?(?:就|也)?(?<!还)(?<!暂时)"
       r"(?<!还没)(?:没续|没有续|不续了|不再续)(?!上)",
       0.75, kind="value", antecedent=True, negatable=False, trigger="续"),
    # 现在改成每天早上跑步, 天天去钓鱼: a habit is a liking
    zh("LIKES", rf"(?<!想)(?<!要)(?<!以后)(?:每天|天天|每周|每个?周末|周末|经常|平时|一般|每晚|改成|迷上了?)"
       rf"(?:(?!逼|让|叫|想|希望|要|得)[^，。！？；]){{0,12}}?(?:去|在)?(?P<obj>{_ACTIVITY})"
       rf"(?![\u4e00-\u9fff]*(?:课|班|比赛))(?!的)(?![^，。！？]*(?:累|烦|辛苦|痛苦))", 0.75, kind="value",
       negated="DISLIKES", supposable=True, trigger="每天|天天|每周|周末|经常|平时|一般|每晚|改成|迷上"),
    # 就是不吃香菜和葱: food one does not eat (不吃…了, a stop, is below)
    zh("DISLIKES", r"(?<!孩子)(?<!孩子就是)(?<!宝宝)(?<!宝宝就是)(?:^|(?<=[，,；;])|从来|一般|就是)不(?:吃|喝)(?![亏苦醋软])(?P<obj>(?:(?!了)[\u4e00-\u9fff]){1,4}?"
       r"(?:[和、跟](?:(?!了)[\u4e00-\u9fff]){1,4}?)*)(?=[，。！？；]|$)", 0.75, kind="value", split=True,
       negatable=False, trigger="不吃|不喝"),
    zh("STOPPED_USING", r"^(?P<obj>[\u4e00-\u9fff]{2,6}?)我(?:已经|早就|现在|再也|都)*(?:不再|不)(?:追|看|玩|喝|吃|听|抽)了(?![，,]\s*谢|[？?吗])",
       0.75, kind="value", negatable=False, trigger="了"),  # 韩剧我已经不追了: the topic first
    # 我爸现在麻将不打了, 奶茶已经三周没碰了: what is given up said first, whoever gives it up
    zh("STOPPED_USING", r"(?:^|(?<=[，,；;。！爸妈哥姐弟妹公婆爷奶])|(?<=现在)|(?<=已经)|(?<=早就)|(?<=如今))(?!现在|已经|早就|最近|平时|今年|其实)"
       r"(?P<obj>(?:(?![我你他她它也都就还])[\u4e00-\u9fff]){2,4}?)(?:也|都)?(?:早就|已经)?(?:不(?:打|玩|下|追|抽|喝|吃|碰)了"
       r"|(?:[一两二三四五六七八九十\d]+(?:天|周|个月|个星期|年)|好久|很久)没(?:碰|喝|吃|抽|打|玩)(?:过)?了)(?![吗？?])", 0.75,
       kind="value", negatable=False, trigger="不打了|不玩了|不下了|不追了|不抽了|不喝了|不吃了|不碰了|没碰|没喝|没吃|没抽|没打|没玩"),
    zh("DISLIKES", r"(?:^|(?<=[，,；;])|(?<=就是)|(?<=倒是))(?P<obj>(?:(?![我你他她它也都就])[\u4e00-\u9fff]){1,4}?)(?:一点|一口|从来)(?:都|也)不(?:碰|吃|喝)",
       0.75, kind="value", negatable=False, trigger="不碰|不吃|不喝"),  # 就是香菜一点都不碰
    zh("STOPPED_USING", rf"(?:以前|之前|原来|过去)(?:一直|都)?用(?:的是)?(?P<obj>[^{ZH_STOP}]{{1,15}}?)[，,][^。！？!?]*?"
       r"(?:换成|改用|换用|转用|切换到|迁移到)", 0.8, require_mention=True, negatable=False, object_type="product",
       trigger="以前|之前|原来|过去"),
    zh("STOPPED_USING", rf"(?:已经|早就|再也)?不{_DO}(?P<obj>[^{ZH_STOP}]{{0,6}}?)了", 0.8, kind="value",
       antecedent=True, negatable=False, trigger="不"),
    zh("STOPPED_USING", rf"(?:不再|再也不|没再|很久没|好久没){_DO}(?P<obj>[^{ZH_STOP}]{{1,10}}?)(?=了|[{ZH_STOP}]|$)", 0.8,
       kind="value", negatable=False, trigger="不再|再也不|没再|很久没|好久没"),
    zh("STOPPED_USING", r"戒(?:掉)?了?(?P<obj>烟|酒|糖|咖啡|奶茶|可乐|游戏|手机|甜食|夜宵|宵夜|零食|辣)", 0.85, kind="value",
       negatable=False, trigger="戒"),
    zh("USES", rf"(?:换成了?|改用了?|迁移到了?|切换到了?|转用了?)(?![^{ZH_STOP}]{{0,10}}?(?:格式|界面|模式|版本)){ZH_OBJ}", 0.85,
       object_type="product",
       trigger="换成|改用|迁移到|切换到|转用"),
    zh("USES", rf"切到了?{ZH_OBJ}", 0.8, require_mention=True, object_type="product", trigger="切到"),  # not 切到后台
    # 从纷享销客切到销售易: a tool left for another, both named (not 从周三改到周五)
    zh("STOPPED_USING", r"从(?P<obj>[\u4e00-\u9fffA-Za-z0-9]{2,8}?)(?:整个)?(?:切到|切换到|迁移到)了?"
       r"(?=[\u4e00-\u9fffA-Za-z0-9]{2,8}(?:了|[，。；！]|$))", 0.8, kind="value", negatable=False,
       trigger="切到|切换到|迁移到"),
    zh("USES", r"从[\u4e00-\u9fffA-Za-z0-9]{2,8}?(?:整个)?(?:切到|切换到|迁移到)了?"
       r"(?P<obj>[\u4e00-\u9fffA-Za-z0-9]{2,8}?)(?=了|[，。；！]|$)", 0.8, kind="value",
       trigger="切到|切换到|迁移到"),
    # how one gets to work: 骑电动车上班, 平时坐地铁, 下雨天就打车 (a trip, 今天坐地铁去的, is no habit)
    zh("USES", rf"(?:{_HABIT})(?:骑|坐|搭|乘)(?P<obj>{_RIDES})", 0.8, kind="value", trigger="骑|坐|搭|乘"),
    zh("USES", rf"(?:骑|坐|搭|乘)(?P<obj>{_RIDES})(?=(?:去|来)?(?:上班|上学|通勤))", 0.8, kind="value",
       trigger="骑|坐|搭|乘"),
    zh("USES", rf"(?:(?:{_HABIT})(?=打)|(?=打[车的](?:去|来)?(?:上班|上学|通勤)))(?P<obj>打车|打的)", 0.8,
       kind="value", trigger="打车|打的"),
    # 公司在科技园那边: where one works, said of the company (a named company's seat is LIVES_IN)
    zh("WORKS_FROM", r"(?<![\u4e00-\u9fffA-Za-z])(?:我们|我的)?公司(?:就)?在(?P<obj>[\u4e00-\u9fff]{2,8}?"
       r"(?:(?<=[园区路街村镇城港湾岛楼门桥口厦场])|(?=那边|那儿|附近|这边)))(?:那边|那儿|附近|这边)?(?=[，。！？；,.!?;]|$)",
       0.75, kind="value", trigger="公司"),
    zh("WORKS_FROM", r"(?<![\u4e00-\u9fffA-Za-z])(?:我们|我的)?公司(?:就)?在(?P<obj>[\u4e00-\u9fff]{2,8}?)(?=[，。！？；,.!?;]|$)",
       0.75, require_mention=True, strict=True, object_type="place", trigger="公司"),  # 公司在望京: a place named
    zh("USES", rf"(?:改喝|改吃|改看|改听|改玩)(?P<obj>[^{ZH_STOP}]{{1,10}}?)(?=[{ZH_STOP}]|了|$)", 0.75, kind="value",
       trigger="改喝|改吃|改看|改听|改玩"),  # 不喝奶茶了，现在改喝无糖豆浆
    zh("USES", rf"(?:搬到|迁到|转到|放到|挪到|记在|放在)了?{zh_obj_before('里|上')}", 0.75, require_mention=True,
       object_type="product", trigger="搬到|迁到|转到|放到|挪到|记在|放在"),
    zh("USES", rf"(?:在用|使用|用的是|用着|一直用){ZH_OBJ}", object_type="product", stop="STOPPED_USING",
       trigger="在用|使用|用的是|用着|一直用"),
    zh("USES", rf"用的(?:是|还是|一直是)(?P<obj>[^{ZH_STOP}]{{1,15}}?)(?=[{ZH_STOP}]|$)", 0.75, require_mention=True,
       object_type="product", trigger="用的"),  # 他们现在用的是用友U8
    zh("USES", rf"用{ZH_OBJ}", 0.75, require_mention=True, object_type="product", stop="STOPPED_USING",
       trigger="用"),
    # 我老婆芒果过敏: a common allergen said without 对 (皮肤过敏 names none)
    zh("ALLERGIC_TO", rf"(?<!对)(?P<obj>{_ALLERGENS})(?:都|也|有点|特别|严重)?过敏", 0.8, kind="value", trigger="过敏"),
    zh("ALLERGIC_TO", r"对(?P<obj>[\u4e00-\u9fffA-Za-z]{1,8}?(?:[、和跟及][\u4e00-\u9fffA-Za-z]{1,8}?)*)(?:都|也|有点|特别|严重)?过敏",
       0.9, kind="value", split=True, trigger="过敏"),  # 我对芒果、花生都过敏
    zh("DIET", r"(?:是|吃|改吃)(?P<obj>素食|素|纯素|全素|清真)(?:者|主义者)?", 0.85, kind="value", trigger="素|清真"),
    zh("LIKES", rf"(?<![更不最])(?:喜欢|爱吃|爱喝|爱玩|爱看|热爱|超爱|特爱|巨爱|爱上了|迷上了?|着迷于?|沉迷于?|痴迷于?|是[^，。]{{1,8}}的粉丝|"
       rf"对{_NOT}{{1,8}}?(?:很|特别|非常)?感兴趣){ZH_OBJ}", 0.85, kind="value",
       trigger="喜欢|爱吃|爱喝|爱玩|爱看|热爱|超爱|特爱|巨爱|爱上|迷上|着迷|沉迷|痴迷|粉丝|感兴趣", negated="DISLIKES"),
    zh("INTERESTED_IN", rf"(?:对){zh_obj_before('(?:很|特别|非常|挺)?感兴趣')}", 0.85, kind="value",
       trigger="感兴趣"),
    zh("INTERESTED_IN", rf"(?:爱好|兴趣)(?:是|有|就是){ZH_OBJ}", 0.85, kind="value", split=True, trigger="爱好|兴趣"),
    # ── places visited, plans, goals ─────────────────────────────────────────────────────
    zh("ATTENDED", rf"参加(?:了|过)?(?!一?下(?:[{ZH_STOP}]|$)){ZH_OBJ}", 0.8, kind="value", trigger="参加"),  # 参加下: 一下
    zh("PLANS_TO_VISIT", rf"(?:去|到){zh_obj_before('参观|考察|拜访|旅游|旅行|玩|出差|参加|看|度假|开会|过年|探亲')}",
       0.85, past="VISITED", require_mention=True, object_type="place", trigger="去|到"),
    zh("PLANS_TO_VISIT", rf"(?:打算|计划|准备|想|要|将|会)[^，。！？；]{{0,6}}?(?:去|到){ZH_OBJ}", 0.85,
       past="VISITED", require_mention=True, object_type="place", trigger="打算|计划|准备|想|要|将|会"),
    zh("PLANS_TO_VISIT", rf"(?:参观|拜访|考察)了?{ZH_OBJ}", 0.8, past="VISITED", require_mention=True,
       trigger="参观|拜访|考察"),
    zh("VISITED", rf"(?:去过|去了|到过|玩了|逛了)(?:一趟|一次|趟|次)?{ZH_OBJ}", 0.85, require_mention=True,
       object_type="place", trigger="去过|去了|到过|玩了|逛了"),
    zh("GOAL", rf"(?:目标是|想成为|梦想是|梦想成为|理想是|心愿是){ZH_OBJ}", 0.8, kind="value",
       trigger="目标|想成为|梦想|理想|心愿"),
    zh("PLANS_TO", rf"(?:打算|计划|准备|想要|决定){ZH_OBJ}", 0.7, kind="value",
       trigger="打算|计划|准备|想要|决定"),
    # ── people and animals ───────────────────────────────────────────────────────────────
    # 领养了一只三花，取名芝麻; 捡了只橘猫，起名叫年糕: a pet named when it came
    zh("HAS_PET", rf"(?:领养了?|收养了?|捡了?|买了?|接回了?|抱回了?|新来了|来了|添了|多了)(?:一只|一条|两只|只|条)?(?P<kind>{_PET})[，,]?"
       r"(?:取名|起名|名字)叫?(?P<obj>[\u4e00-\u9fff]{1,4}?)(?=[，。！？；,]|$)", 0.85, kind="entity",
       object_type="animal", trigger="取名|起名|名字"),
    # 家里新来了只金毛，叫栗子: a pet arrived, named in the next clause
    zh("HAS_PET", rf"(?:新来了|新添了|来了|添了|多了)(?:一只|一条|两只|只|条)(?P<kind>{_PET})[，,](?:叫|名叫)"
       r"(?P<obj>[\u4e00-\u9fff]{1,3}?)(?=[，。！？；,]|$)", 0.85, kind="entity", object_type="animal",
       trigger="叫"),
    zh("HAS_PET", rf"(?:家里|家)(?:那只|的|那条)(?:老)?(?P<kind>{_PET})(?P<obj>[\u4e00-\u9fff]{{2}})(?=[有很也都在最又今昨刚总还特]|[，。！]|$)",
       0.75, kind="entity", object_type="animal", trigger="家"),  # 家里那只老布偶年糕有点吃醋
    zh("HAS_PET", rf"(?:养了?|有)(?:一只|一条|两只|只|条|一匹)?(?P<kind>{_PET})(?:，|,)?(?:叫|名叫|名字叫)"
       r"(?P<obj>[\u4e00-\u9fff]{1,4}?)(?=[，。！？；,]|$)", 0.85, kind="entity", object_type="animal",
       trigger="养|有"),
    zh("HAS_PET", r"养了?(?:一只|一条|两只|只|条)?(?P<obj>[\u4e00-\u9fff]{0,2}?(?:猫|狗|猫咪|狗狗|兔子|鹦鹉|仓鼠|乌龟))"
       r"(?![，,]?(?:叫|名叫|名字叫))", 0.8,
       kind="value", trigger="养"),
    zh("HAS_PET", rf"(?:狗|猫|猫咪|狗狗)(?:叫|名叫|的名字是){ZH_NAME}", 0.85, kind="entity", object_type="animal",
       trigger="叫|名字"),
    zh("MARRIED_TO", rf"(?:和|跟){ZH_NAME_BARE}结婚", 0.9, kind="entity", object_type="person", trigger="结婚"),
    zh("BIRTHDAY", rf"生日(?:是|在|为)?{ZH_DATE}", kind="birthday", trigger="生日"),
    zh("BIRTHDAY", rf"过生日[，,（(]\s?(?:就是|是)?{ZH_DATE}", kind="birthday", trigger="生日"),  # 下周三过生日，6月5号
    zh("AGE", r"(?:今年|已经|现在)(?:整|满)?(?P<obj>\d{1,3}|[一二两三四五六七八九十]{1,3})(?:岁|周岁|了|(?=[，。！]|$))",
       kind="number", trigger="岁|了|今年"),
    zh("AGE", r"都(?P<obj>\d{1,3}|[一二两三四五六七八九十]{1,3})(?:岁|周岁)", kind="number", trigger="岁"),  # 我外婆都85岁了
    zh("AGE", r"(?<![下上])(?:刚|才|已经|今年)满(?P<obj>\d{1,3}|[一二两三四五六七八九十]{1,3})(?:岁|周岁)", kind="number",
       trigger="满"),  # 我孙子刚满三岁
)  # fmt: skip
