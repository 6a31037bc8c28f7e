"""Chinese fact patterns of the builtin extractor: personal and business memory, chat messages.

Ordered: a more specific pattern comes before a general one, since the first pattern whose
object span is taken wins (``engram.ingest.builtin``). See ``engram.ingest.frames.Pattern``.
"""

from __future__ import annotations

from functools import partial

from engram.ingest.frames import (
    ZH_DATE,
    ZH_NAME,
    ZH_OBJ,
    ZH_OBJ_LONG,
    ZH_ROLE,
    ZH_STOP,
    Pattern,
    pattern,
    zh_obj_before,
)
from engram.ingest.frames_zh import (
    ACTIVITY,
    ALLERGENS,
    DEPT,
    DO,
    HABIT,
    HELD,
    LEFT_FOR,
    LEFT_SAID,
    MOVES_ON,
    NAME_START,
    NEAR,
    NOT_A_ROLE,
    NOT_A_TIME,
    ORG,
    PERSON,
    PET,
    RIDES,
    TAKES_ON,
    TEAM_ROLE,
    TITLES,
    ZH_NOT_HELD,
    ZH_NOT_STOP,
)
from engram.ingest.lexicon import ZH_TITLED
from engram.ingest.patterns_couples import ZH_COUPLE_PATTERNS
from engram.ingest.patterns_zh_deals import ZH_DEAL_PATTERNS
from engram.ingest.patterns_zh_homes import ZH_HOME_PATTERNS
from engram.ingest.patterns_zh_work import ZH_WORK_PATTERNS

zh = partial(pattern, "zh")

_FROM_DAY = (
    r"(?:自?(?:\d{1,2}|[一二三四五六七八九十]{1,3})[号日]起|(?:下周[一二三四五六日]?|下个?月|明天|即日)起)?"
)
"""A day a role is taken from, between the name and 任 (王建国15号起任华东区销售总监)."""
_NOT_A_TIME = r"(?!昨天|今天|明天|前天|后天|最近|现在|刚才|刚刚|上周|下周|这周|本周|每天|一直|已经|今年|去年)"
"""Where a pet's name would begin, a time (我家的猫昨天做了绝育手术): no name."""
_JOB_FIELD = (
    r"(?:数据分析|开发|设计|销售|运营|产品|算法|研发|市场|财务|HR|人事|行政|测试|前端|后端|技术|咨询|会计|审计|法务|"
    r"客服|采购)"
)
"""A field of work after 做 or in a bracket (去字节做数据分析, 易欣（凌云软件 采购）): a job, not an errand."""
SAYS = r"(?=[说讲表提告，。也都在是]|要求|希望|确认|答应|同意|回复|建议|催)"
"""After a person named by their organisation or role: what they go on to say or ask."""

ZH_PATTERNS: tuple[Pattern, ...] = (
    # ── where people live and come from ──────────────────────────────────────────────────
    *ZH_HOME_PATTERNS,
    zh("VISITED", rf"回(?:到|了)?+(?![访复归应答收报顾馈款])(?:一趟|一次|趟)?(?:老家)?(?=[\u4e00-\u9fff]){ZH_OBJ}", 0.75, require_mention=True,
       object_type="place", strict=True, future="PLANS_TO_VISIT", supposable=True, trigger="回"),  # a place gone back to (not 回到GitLab CI,
    # 电话回访云帆物流); 明天回上海: a trip still to come
    # ── work and study ───────────────────────────────────────────────────────────────────
    zh("LEFT_ORGANISATION", rf"从{zh_obj_before('离职|辞职|退休|跳槽|跳到|出来')}", 0.85, require_mention=True,
       object_type="organisation", trigger="离职|辞职|退休|跳槽|跳到|出来", negatable=False),
    zh("LEFT_ORGANISATION", r"从(?P<obj>[\u4e00-\u9fffA-Za-z]{2,8}?)(?:离职|辞职)", 0.75, kind="entity",
       object_type="organisation", trigger="离职|辞职", negatable=False),  # 从平安离职: what one leaves employs

    zh("WORKS_AT", rf"(?:跳槽到了?|跳槽去了?|跳到了?|跳去了?|加盟了?){ZH_OBJ}", 0.85, require_mention=True,
       object_type="organisation", trigger="跳槽|跳到|跳去|加盟"),
    # 我下周就离职了，去深圳大疆做硬件测试: where one goes to work after leaving
    zh("WORKS_AT", rf"(?:离职|辞职|跳槽)了?[，,](?:然后|之后)?(?:准备|打算|要)?去{ORG}(?:做|当|上班|工作|任职|报到)", 0.8,
       require_mention=True, object_type="organisation", trigger="离职|辞职|跳槽"),
    # 孙经理离职了，听说去了小米; 周涛离职（去了美团）: where one goes right after leaving is the new employer
    zh("WORKS_AT", rf"{LEFT_FOR}(?:去了|到了|加入了?)(?!一?趟|一次){ZH_OBJ}", 0.8,
       require_mention=True, object_type="organisation", trigger="离职|辞职|跳槽|被裁|offer|工作"),
    # 跳槽去了一家叫“途远科技”的公司, 新公司叫云栖数智: the new employer named as such
    zh("WORKS_AT", r"(?:去了|到了|加入了?|去)一家叫[“\"]?(?P<obj>[^”\"，。；！]{2,10}?)[”\"]?的(?:公司|企业|创业公司)", 0.8,
       kind="entity", object_type="organisation", trigger="一家叫"),
    zh("WORKS_AT", r"新公司(?:叫|是)[“\"]?(?P<obj>[\u4e00-\u9fffA-Za-z0-9]{2,10}?)[”\"]?(?=[，。；！,]|$)", 0.8, kind="entity",
       object_type="organisation", trigger="新公司"),
    # 跳槽去海底捞当运营副总裁: a name no dictionary knows, then the job taken there, is the employer
    zh("WORKS_AT", r"(?:跳槽到了?|跳槽去了?|跳到了?|跳去了?|(?:离职|辞职)了?[，,](?:听说)?去了)(?P<obj>[\u4e00-\u9fffA-Za-z0-9]{2,8}?)(?=当|做|任|担任|上班|入职)",
       0.8, kind="entity", object_type="organisation", trigger="跳槽|跳到|跳去|离职|辞职"),
    zh("WORKS_AT", rf"(?:调到了?|调去了?|调往|借调到了?)(?=[^{ZH_STOP}]{{0,8}}(?:分公司|公司|办事处|总部|分部|集团|门店|分行|"
       rf"支行|工厂)){ZH_OBJ}", 0.85, require_mention=True, object_type="organisation",
       trigger="调到|调去|调往"),  # 调到深圳分公司 (a department, 调到了运营部, is MEMBER_OF)
    # not 不在星巴克买咖啡了 (no longer bought there)
    zh("LEFT_ORGANISATION", rf"(?:已经|早就)?不在(?P<obj>[^{ZH_STOP}上买吃喝点订看玩]{{2,10}}?)(?<![住待呆])"
       r"(?:了|干了|工作了|上班了)", 0.8,
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
    zh("LIVES_IN", rf"在(?P<obj>[^{ZH_STOP}]{{1,8}}?)(?:住了|生活了|(?:待了|呆了)(?=(?:快|近|将近|差不多|有|都)?[一二三四五六七八九十两几\d]+多?年)|定居|安家|买了房)", 0.8, require_mention=True,
       object_type="place",
       trigger="住了|生活了|待了|呆了|定居|安家|买了房"),
    zh("LEFT_ORGANISATION", rf"从{DEPT}(?:调到|调去|转到|换到)", 0.85, kind="entity",
       object_type="organisation", trigger="调到|调去|转到|换到", negatable=False),
    zh("MEMBER_OF", rf"(?<![想要愿])(?:调到|调去|调往|调(?=[\u4e00-\u9fff]{{2,5}}?部(?:去|了|[，。；]|$))|转到|换到|放在|分在|分到|"
       rf"安排在|安排到|转岗(?:去|到)?)了?{DEPT}", 0.85, kind="entity", named_subject=True,
       object_type="organisation", trigger="调|转到|换到|放在|分在|分到|安排在|安排到|转岗"),
    # 周浩下周一入职，高级测试工程师，放在质量部: the role said alone after joining
    zh("HAS_ROLE", rf"入职[，,](?P<obj>{ZH_ROLE})(?=[，。；！]|$)", 0.8, kind="entity", object_type="role", trigger="入职"),
    # 我下周起转去做渠道了: what one moves on to (not 调去: jieba reads 贺强调去 as 贺 强调, the name lost)
    zh("ASSIGNED_TO", rf"{MOVES_ON}(?P<obj>[^{ZH_STOP}]{{2,12}}?项目)(?=了|[{ZH_STOP}]|$)", 0.75,
       kind="entity", object_type="project", trigger="转去|改去|转岗|转而"),
    zh("RESPONSIBLE_FOR", rf"{MOVES_ON}(?P<obj>[^{ZH_STOP}]{{2,8}}?)(?<!项目)(?=了|[{ZH_STOP}]|$)", 0.75,
       kind="value", trigger="转去|改去|转岗|转而"),
    zh("LEFT_ORGANISATION", rf"(?:在|从){ORG}(?:工作|上班|干)了(?:[一二三四五六七八九十两几\d]+)多?年", 0.75,
       require_mention=True, trigger="工作了|上班了|干了", past="LEFT_ORGANISATION", negatable=False),
    zh("LEFT_ORGANISATION", rf"(?:离开了?|辞掉了?|辞去了?|离职了?)(?!去|到|加入){ZH_OBJ}", 0.8, require_mention=True,
       object_type="organisation", trigger="离开|辞掉|辞去|离职", negatable=False),
    # 赵强上周离职了, 我已经辞职了: left, the employer unsaid (the latest one ends). The subject is
    # right before the verb (past-time words between), so 赵强的助理离职了 is not 赵强's leaving.
    zh("LEFT_ORGANISATION", rf"我{LEFT_SAID}(?P<obj>)(?=[{ZH_STOP}]|$)", 0.75,
       subject="speaker", trigger="离职|辞职|退休|被裁|被辞退|被开除", negatable=False, objectless=True),
    zh("LEFT_ORGANISATION", rf"{PERSON}\s?{LEFT_SAID}(?P<obj>)(?=[{ZH_STOP}]|$)", 0.75,
       subject="group", subject_type="person", named_subject=True, trigger="离职|辞职|退休|被裁|被辞退|被开除",
       negatable=False,
       objectless=True),
    zh("STUDIES_AT", rf"(?<![现正实存])在(?!重|再|认真|仔细|慢慢|努力|好好|自学|陆续|抽空)(?P<obj>[^{ZH_STOP}]{{2,15}}?)"
       rf"(?:读书|上学|读研|读博|念书|读大学|读|学习|"
       r"念|上课)", trigger="读|上学|念|学习|上课"),
    zh("STUDIES_AT", r"在(?P<obj>[\u4e00-\u9fff]{2,8}(?:小学|中学|大学|学院|学校|幼儿园))(?![\u4e00-\u9fff]*(?:工作|上班))"
       rf"(?!{NEAR})",  # 在新城中学旁边开了家奶茶店: a landmark
       0.85, kind="entity", object_type="organisation", trigger="小学|中学|大学|学院|学校|幼儿园"),
    # 被浙大计算机录取了: admitted to a school, to study a subject there
    zh("STUDIES_AT", r"被(?P<obj>[\u4e00-\u9fff]{1,6}?(?:大学|学院|大|中学|小学))(?:[\u4e00-\u9fff]{2,6}?(?:专业|系)?)?录取",
       0.85, kind="value", trigger="录取"),
    # 考上了南京大学天文系: a school passed into, and the subject of its department
    zh("STUDIES_AT", r"考(?:上|进|到)了?(?P<obj>[\u4e00-\u9fff]{2,8}?(?:大学|学院|中学|小学|高中|一中|二中|附中)|"
       r"(?:清华|北大|浙大|复旦|交大|南大|武大|中大|川大|厦大|人大|同济|哈工大))", 0.85,
       kind="entity", object_type="organisation", trigger="考上|考进|考到"),
    zh("STUDIES", r"考(?:上|进|到)了?[\u4e00-\u9fff]{2,8}?(?:大学|学院)的?(?P<obj>[\u4e00-\u9fff]{2,6}?)(?:专业|系)", 0.8,
       kind="value", trigger="考上|考进|考到"),
    zh("STUDIES", r"被[\u4e00-\u9fff]{1,6}?(?:大学|学院|大)(?P<obj>[\u4e00-\u9fff]{2,6}?)(?:专业|系)?录取", 0.8,
       kind="value", trigger="录取"),
    zh("STUDIES", r"(?:是学(?!生)|学的是|读的是)(?P<obj>[\u4e00-\u9fff]{2,6}?)(?:专业)?的?(?=[，。！？；]|$)", 0.8, kind="value",
       trigger="学|读的是"),  # 我女儿是学电子工程的, 学的是土木
    zh("STUDIES", r"(?<!下一步)(?<!接下来)(?:读|(?<![同上放开大中小数化文科奖转要])学|念|主修|攻读)(?!书|研|博|大学|小学|中学|过|了|一|校|生|期|费|历|专业|到|完|卡|区|会(?!计))(?P<obj>[\u4e00-\u9fff]{2,4}?)(?=[，。！？；]|$)",
       0.8, kind="value", supposable=True, trigger="读|学|念|主修|攻读"),  # not 想学日语
    zh("WORKS_FROM", r"(?<![住待呆睡])在(?P<obj>[\u4e00-\u9fffA-Za-z]{0,6}?(?:办公室|分公司|总部|家|公司|工厂|门店|园区|基地))"
       r"(?:办公|上班|工作)?(?=[，。；！]|$|办公|上班|工作)", 0.8, kind="value",
       trigger="办公室|分公司|总部|家|公司|工厂|门店|园区|基地"),
    zh("WORKS_FROM", r"(?P<obj>远程(?=办公|工作|上班|[，。！？；,]|$)|居家办公|在家办公|线上办公|远程办公)", 0.8, kind="value",
       trigger="远程|居家办公|在家办公|线上办公"),
    zh("WORKS_AT", rf"(?<![现正实存])在(?P<obj>[^{ZH_STOP}]{{1,15}}?)(?:工作|上班|任职|实习|就职|做|当|干)",
       trigger="工作|上班|任职|实习|就职|做|当|干", require_mention=True, object_type="organisation"),
    # 在一家做跨境电商的小公司当财务经理: an employer described, not named
    zh("WORKS_AT", rf"(?:在|去|到)(?P<obj>一家[^{ZH_STOP}]{{2,15}}?(?:公司|企业|工厂|单位|机构|门店|医院|学校))"
       r"(?:当|做|任|上班|工作|实习)", 0.75, kind="value", trigger="一家"),
    zh("WORKS_AT", rf"(?:去|到)\s?(?P<obj>[^{ZH_STOP}]{{1,15}}?)\s?(?:工作|上班|任职|实习|就职|报到|当(?={ZH_ROLE})|"
       rf"做(?={_JOB_FIELD}))", trigger="工作|上班|任职|实习|就职|报到|当|做", require_mention=True,
       object_type="organisation"),  # 接下来去字节做数据分析: a job's field (not 去华为做汇报)
    # 易欣（凌云软件 采购）: a CRM note's bracket after a name says where the person works (not 张一鸣（原美团）)
    zh("WORKS_AT", rf"(?P<subj>[\u4e00-\u9fff]{{2,3}}?)[（(](?![原前])(?P<obj>[\u4e00-\u9fffA-Za-z0-9]{{2,12}}?)"
       rf"(?:\s?(?:{ZH_ROLE}|{_JOB_FIELD}))?[)）]", 0.75, subject="group", subject_type="person", named_subject=True,
       require_mention=True, strict=True, object_type="organisation", introduces=True, trigger="（|("),
    zh("WORKS_AT", r"在(?P<obj>银行|医院|学校|政府|律所|事务所|超市|餐厅|酒店|工厂|国企|外企|央企|大厂|报社|电视台|"
       r"幼儿园|大学|中学|小学|研究所|设计院|警局|派出所|法院)(?:工作|上班|任职|当)", 0.8, kind="value",
       trigger="工作|上班|任职|当"),
    zh("WORKS_AT", rf"(?:就职于|任职于|入职了?|加入了?)(?P<obj>[^{ZH_STOP}]{{1,15}}?)(?=满|[{ZH_STOP}]|了|的|吧|呢|啊|$)", require_mention=True, object_type="organisation",
       trigger="就职于|任职于|入职|加入"),
    # 我是华为的工程师; not 对接人还是他们的店长周琳 (their manager is the contact, not the speaker)
    zh("WORKS_AT", rf"是(?!他们|她们|对方|你们)(?P<obj>[\u4e00-\u9fffA-Za-z]{{2,10}}?)(?:[\u4e00-\u9fff]{{2,3}}区)?的(?:{ZH_ROLE})",
       0.85, require_mention=True, object_type="organisation", trigger="是"),
    zh("WORKS_AT", rf"(?P<obj>[\u4e00-\u9fffA-Za-z]{{2,8}}?)的(?:{ZH_ROLE}){PERSON}{SAYS}",
       0.8, subject="group", subject_type="person", require_mention=True, object_type="organisation",
       introduces=True, trigger="的"),
    # 远洋冷链IT总监孙浩: an organisation, a role, then the person's name
    zh("WORKS_AT", rf"(?!联系人|负责人|对接人|决策人)(?P<obj>[\u4e00-\u9fffA-Za-z]{{2,8}}?)(?:的)?(?:[A-Za-z]{{1,4}})?(?:{ZH_ROLE})(?P<subj>"
       rf"[\u4e00-\u9fff]{{2,3}}?)(?![^，。；]{{0,3}}?(?:跳槽|调走|离职|辞职))", 0.75, subject="group", subject_type="person",
       named_subject=True,
       require_mention=True, strict=True, object_type="organisation", introduces=True,
       trigger="经理|总监|主管|总|负责人|工程师|主任|ceo|cto|cfo|coo|vp|总裁"),
    zh("WORKS_AT", rf"{NAME_START}(?!他们|我们|你们|对方)(?P<obj>[\u4e00-\u9fffA-Za-z]{{2,8}}?)(?:的(?:新|老)?|\s)?(?P<subj>{ZH_TITLED.pattern})"
       r"(?![^，。；]{0,3}?(?:换了|换人了|跳槽|调走|离职|辞职))",
       0.8, subject="group", subject_type="person", require_mention=True, strict=True, object_type="organisation",
       introduces=True, trigger=TITLES),  # 蓝海医疗的何总更喜欢…, 跟绿源农业刘总视频会: a title names the person whatever follows
    zh("WORKS_AT", rf"(?P<obj>[\u4e00-\u9fffA-Za-z]{{2,8}}?)的{PERSON}{SAYS}", 0.75,
       subject="group", subject_type="person", require_mention=True, strict=True, object_type="organisation",
       introduces=True, trigger="的"),
    zh("HAS_ROLE", rf"的(?P<obj>{ZH_ROLE}){PERSON}{SAYS}", 0.8, subject="group",
       subject_type="person", kind="entity", object_type="role", introduces=True, trigger="的"),
    zh("LEFT_ROLE", rf"(?:原(?!来|计划|本|定|先|因|价)|前任)(?P<obj>[A-Za-z0-9\u4e00-\u9fff]{{0,6}}{ZH_ROLE}){NOT_A_TIME}{PERSON}(?![的报])", 0.75,
       subject="group", subject_type="person", named_subject=True, kind="entity", object_type="role",
       negatable=False, trigger="原|前任"),  # 原广州组长韦强改任…: the role is the one he held
    # 采购经理赵强说…, 我们的销售总监王磊明天来, 找秘书小钱, 由现任财务经理白露接任: a role before a
    # name the mention finder knows as a person's
    zh("HAS_ROLE", rf"(?:(?:我们|他们|你们|对方|客户|公司)的?|现任|新任|新来的)?{ZH_NOT_HELD}(?P<obj>{ZH_ROLE}){NOT_A_TIME}{PERSON}"
       r"(?![的报])", 0.75, subject="group",
       subject_type="person", named_subject=True, kind="entity", object_type="role", introduces=True),
    zh("HAS_ROLE", rf"(?:新来的|我们的|公司的)?(?P<obj>实习生|助理|经理|总监){PERSON}(?=跟|和|在|是|负责|，)",
       0.75, subject="group", subject_type="person", kind="entity", object_type="role",
       trigger="实习生|助理|经理|总监"),  # not 新同事杨帆: a colleague is no role
    # 负责华南区的销售, 华东区的销售总监; not 华南区的渠道大会 nor 放弃华北区的政府项目 (an event, a project)
    zh("RESPONSIBLE_FOR", r"(?<!给)(?<!找)(?<!跟)(?<!和)(?<!问)(?!们|小区)(?P<obj>[\u4e00-\u9fff]{2}区)的(?![^，。！？；]*(?:由|定为|交接给|交给|转给|换成|改为)(?!他|她))"
       r"(?![^，。！？；]{0,6}?(?:大会|会议|活动|峰会|年会|项目))(?=[^，。！？；]{0,6}?(?:销售|渠道|业务|客户|市场|总监|经理|负责人|团队))",
       0.75, kind="value", trigger="区的", stop="UNASSIGNED_FROM"),
    zh("RESPONSIBLE_FOR", r"(?:^|(?<=[，。；：]))(?!以后|今后|之后|现在|目前|后面|接下来)(?P<obj>[\u4e00-\u9fff]{2,8}?)(?:这块|这边|这部分|这一块)(?:还是|也|都|仍然|继续|以后|一直)?"
       r"(?:是|由)?我(?:来)?(?:负责|管|跟)", 0.8, subject="speaker", kind="value", trigger="这块|这边|这部分|这一块"),
    zh("RESPONSIBLE_FOR", r"(?P<obj>[\u4e00-\u9fff]{2}区)的[^，。！？；]{0,10}由我", 0.75, subject="speaker", kind="value",
       trigger="由我", stop="UNASSIGNED_FROM"),  # "华北区的部分由我负责": mine, whoever an earlier clause names
    zh("HAS_ROLE", rf"(?:我是|(?<!用的|选的|买的)(?<!用)(?<!系统|软件|工具|平台)(?<!CRM|ERP)是|担任|作为|当了?|升为|升任|晋升为?|提拔为|(?<=起)升|升了|升职为|升职成了?|成为)(?:一名|一个|一位|公司的|我们的|[\u4e00-\u9fffA-Za-z]{{2,10}}?的)?"
       rf"(?P<obj>{TEAM_ROLE})", trigger="是|担任|作为|当|升|提拔|成为",
       kind="entity", object_type="role", stop="LEFT_ROLE"),  # 架构组组长: the team's role, whole; 用的是销售易, CRM是销售易: a tool
    zh("HAS_ROLE", r"(?:是)?做(?P<obj>设计|销售|财务|会计|编程|开发|运营|市场|产品|人事|法务|翻译|客服)的", 0.75,
       kind="entity", object_type="role", trigger="做"),
    zh("HAS_ROLE", rf"(?:做|当|干)(?:了)?(?:一名|一个|一位)?(?P<obj>{ZH_ROLE})", 0.8, kind="entity",
       object_type="role", trigger="做|当|干", stop="LEFT_ROLE", supposable=True),  # not 我想转行做产品经理
    # …跳到了字节，做商业化产品经理: a clause of its own that is one's title, its qualifier kept
    zh("HAS_ROLE", rf"(?:^|(?<=[，,]))(?:做|当)(?P<obj>[\u4e00-\u9fffA-Za-z]{{2,4}}?{ZH_ROLE})(?=[，。；！,]|$)", 0.8,
       kind="entity", object_type="role", trigger="做|当", stop="LEFT_ROLE", supposable=True),
    zh("HAS_ROLE", rf"{PERSON}{_FROM_DAY}(?:出任|改任|转任|升任|任)(?P<obj>{TEAM_ROLE})", 0.8, subject="group",
       subject_type="person", named_subject=True, kind="entity", object_type="role", trigger="任"),  # 单丽娜任总经理
    # 任命孙浩然为华南区销售总监: an appointment names who holds the role
    zh("HAS_ROLE", rf"任命{PERSON}(?:同志)?(?:为|担任)(?P<obj>{TEAM_ROLE})", 0.85, subject="group",
       subject_type="person", named_subject=True, kind="entity", object_type="role", trigger="任命"),
    # 职位是数据分析主管, 岗位是课程运营: one's own title, said as a field
    zh("HAS_ROLE", rf"(?:职位|岗位|职务|title)(?:是|为)(?P<obj>[\u4e00-\u9fffA-Za-z]{{0,6}}?{ZH_ROLE})(?=[，。；！,]|$)", 0.8,
       kind="entity", object_type="role",
       trigger="职位|岗位|职务|title", stop="LEFT_ROLE"),
    zh("HAS_ROLE", rf"(?:^|(?<=[，,]))(?:出任|改任|转任|任)(?P<obj>{TEAM_ROLE})",
       0.8, kind="entity", object_type="role", trigger="任", stop="LEFT_ROLE"),  # …调到产品部，任高级产品经理
    zh("LEFT_ROLE", rf"(?:不再(?:担任|兼任)|卸任|辞去了?|不当)(?P<obj>{ZH_ROLE})", 0.85, kind="entity",
       object_type="role", trigger="不再担任|不再兼任|卸任|辞去|不当", negatable=False),
    # 销售总监一职由韩雪接任, CTO由原来的架构师马俊接任: the role, then who takes it over
    zh("HAS_ROLE", rf"(?:^|(?<=[，。：；！\s]))(?:原|前)?(?P<obj>{TEAM_ROLE})(?:一职)?由\s?(?:原来的|之前的|原)?(?:{ZH_ROLE})?"
       rf"{PERSON}\s?(?:来)?(?:接任|接替|担任)", 0.8, subject="group", subject_type="person", named_subject=True,
       kind="entity", object_type="role", trigger="由"),
    # 12月起由 方晓雯 担任负责人: who takes the role, then the role
    zh("HAS_ROLE", rf"由\s?{PERSON}\s?(?:来)?(?:担任|出任)(?P<obj>{TEAM_ROLE}|负责人)", 0.8, subject="group", subject_type="person",
       named_subject=True, kind="entity", object_type="role", trigger="担任|出任"),
    # 卞晓东正式任命为前端组长, 何晴晋升为内容主管: appointed or promoted to a role its qualifier names
    zh("HAS_ROLE", rf"(?:正式|被|已经?)?(?:任命为|晋升为|提拔为|升为|升任|调任)(?P<obj>[\u4e00-\u9fffA-Za-z]{{0,5}}?{ZH_ROLE})"
       rf"(?=[，。；！,\s]|$)", 0.8, kind="entity", object_type="role", trigger="任命为|晋升为|提拔为|升为|升任|调任",
       stop="LEFT_ROLE"),
    # 采购主管周涛离职了，接任的是李慧: the one taking over holds the role named before
    zh("HAS_ROLE", rf"(?:接任|接替)(?:他|她|的人)?的?(?:是|叫){PERSON}(?P<obj>)(?=[，。！？；]|$)", 0.75, subject="group",
       subject_type="person", named_subject=True, kind="entity", object_type="role", antecedent=True,
       negatable=False, trigger="接任|接替"),
    # 不再兼任质量经理了，由郝亮接任: the one taking over holds the role the sentence named
    zh("HAS_ROLE", rf"(?<!工作)(?<!的事)(?<!业务)(?<!客户)(?<!项目)由(?:现任|新任|新来的)?(?:{ZH_ROLE})?{PERSON}(?:来)?"
       rf"(?:接任|接替)(?P<obj>)(?=[，。！？；]|$)", 0.75,  # not 原测试部的工作由陶然接任: work, no role
       subject="group",
       subject_type="person", named_subject=True, kind="entity", object_type="role", antecedent=True,
       negatable=False, trigger="接任|接替"),
    # 我们的领导是…, 新的甲方负责人为 郝建军, 新来的实习生叫 邹一凡: the role, then who holds it
    zh("HAS_ROLE", rf"(?:我们|我的|公司的|部门的|我们的|我们公司的|我们部门的)?(?P<obj>{ZH_ROLE}|领导|(?<=新|方)负责人)"
       rf"(?:是|为|叫)\s?{PERSON}(?=[，。！？；\s]|$)",
       0.8, subject="group", subject_type="person", kind="entity", object_type="role", trigger="是|为|叫"),
    zh("REPORTS_TO", rf"向(?:{ZH_ROLE})?{NOT_A_ROLE}(?P<obj>他|她|[\u4e00-\u9fff]{{2,4}}?|[A-Z][a-z]+)汇报", 0.85,
       kind="entity", object_type="person", trigger="汇报"),
    zh("HAS_ROLE", rf"向(?P<obj>{ZH_ROLE}){NOT_A_ROLE}{PERSON}汇报", 0.8, subject="group", subject_type="person",
       named_subject=True, kind="entity", object_type="role", trigger="汇报"),  # 向CTO王磊汇报
    zh("REPORTS_TO", rf"(?:汇报给|汇报对象(?:是|变成了?|换成了?|改成了?)|(?:上级|领导|老板|上司)(?:是|变成了?|换成了?)|"
       rf"(?:直属领导|直属上级|顶头上司|直属老板)(?:是)?){ZH_NAME}",
       0.85, kind="entity", object_type="person", trigger="汇报|上级|领导|老板|上司"),
    zh("UNASSIGNED_FROM", r"(?P<obj>)(?:退出|撤出|不管了|不做了|不跟了)", 0.75, kind="entity",
       object_type="project", antecedent=True, trigger="退出|撤出|不管了|不做了|不跟了", negatable=False),
    zh("ASSIGNED_TO", rf"(?:被?分到了?|被?分配到了?|调到了?|派到了?|接手了?|加入了?|转到了?|"
       rf"(?:跟|和)我一起做|一起做|参与了?|负责(?!的)){ZH_OBJ}", 0.85, kind="entity", object_type="project",
       require_mention=True, whole=True, trigger="分到|分配到|调到|派到|接手|加入|转到|一起做|参与|负责",
       stop="UNASSIGNED_FROM"),  # whole: 负责API迁移 is no project "API"
    zh("ASSIGNED_TO", rf"(?P<obj>[\u4e00-\u9fffA-Za-z0-9]{{2,12}}项目)(?:其实|现在|目前|一直|实际上)?(?:由|交给|归|是)"
       rf"{PERSON}(?:在|来)?(?:牵头|负责|跟进|主导|"
       r"对接|接手|管)", 0.8, subject="group", subject_type="person", kind="entity", object_type="project",
       trigger="牵头|负责|跟进|主导|对接|接手|管"),
    # "华北区的客户都由陈静对接": the one after 由 is responsible, not the speaker (a named project: above).
    zh("RESPONSIBLE_FOR", rf"(?:以后|之后|后面|今后|现在|目前)?(?<![以之今现目])(?!以后|之后|后面|今后|现在|目前)"
       rf"(?:这期间|期间|其间)?(?P<obj>[\u4e00-\u9fffA-Za-z0-9]{{2,12}}?(?:[和、][\u4e00-\u9fffA-Za-z0-9]{{2,8}}?)*)(?:那边|这边)?"
       rf"(?:(?:这个|那个|这些|那些|[两三四五几]个)(?:客户|项目)?|这块|这部分)?(?:现在|目前|其实|"
       rf"一直|实际上|暂时|暂|都|全部|以后|之后|后面|今后|继续)?(?:改)?(?:由|让){PERSON}(?:来)?(?:负责|牵头|跟进|主导|对接|代管|兼管|管|"
       rf"维护|处理|接手|带|盯着?|(?:接|跟)(?=[，。！；]|$))", 0.8, subject="group", subject_type="person", kind="value",
       split=True, trigger="由|让"),  # 400热线由小蒋接, 回款让小贝盯着, 两个客户由宋佳怡对接
    # 数据平台组以后归刘振宇管: a team goes to someone who runs it
    # 我下个月开始带数据平台组了: a team one leads from then on
    zh("MANAGES", r"(?:开始|正式|接手|负责)?(?:带|管)(?P<obj>[\u4e00-\u9fffA-Za-z0-9]{2,10}?(?:组|团队|小组|部门|中心))"
       r"(?=了|[，。！；]|$)", 0.8, kind="value", trigger="带|管"),
    zh("MANAGES", rf"(?:^|(?<=[，,；;：:]))(?P<obj>[\u4e00-\u9fffA-Za-z0-9]{{2,10}}?(?:组|团队|中心|小组))(?:以后|现在|暂时|都)?"
       rf"(?:归|由){PERSON}(?:来)?(?:管|带|负责)(?=[，。！；了]|$)", 0.8, subject="group", subject_type="person",
       named_subject=True, kind="value", trigger="归|由"),
    # 小程序改版那摊事以后叶琳来跟, 华北大区归我管: who takes something on, said after it
    zh("RESPONSIBLE_FOR", rf"(?:^|(?<=[，,；;：:]))(?P<obj>[\u4e00-\u9fffA-Za-z0-9]{{2,12}}?)(?:那摊事|这摊事|这块|那块)?(?:以后|之后|后面|今后|"
       rf"现在)?(?:都)?{PERSON}来(?:跟|管|负责|对接|维护)(?=[，。！？；了进]|$)", 0.75, subject="group", subject_type="person",
       named_subject=True, kind="value", trigger="来跟|来管|来负责|来对接|来维护"),
    # 华东区大客户从7月1号起由我来跟: the speaker takes it on (from whoever held it, speaker.handed_over_by)
    zh("RESPONSIBLE_FOR", r"(?:^|(?<=[，,；;：:]))(?!谁|另外|还有|然后|同时|此外|而且|以后|如果|要是|假如|具体)"
       rf"(?:[^，。！？；]{{0,6}}?{HELD}|[^，。！？；]{{1,8}}?了?(?:之后|以后))?"  # 她负责的埋点SDK由我接手: what she held;
       r"(?P<obj>(?:(?!打算|本来|原本|之后|以后)[\u4e00-\u9fffA-Za-z0-9]){2,12}?)(?:这个|那个|这些|那些)?(?:(?<!大)客户|项目)?"
       r"(?:从[^，。！？；]{1,10}?(?:起|开始)|以后|之后|今后|现在|目前|暂时)?(?:都|全部)?(?:改)?由我(?:来)?"
       r"(?:负责|牵头|跟进?|对接|管|接手|带|维护)(?=[，。！；了]|$)", 0.75, subject="speaker", kind="value", handover=True,
       supposable=True, trigger="由我"),
    zh("RESPONSIBLE_FOR", rf"(?:^|(?<=[，,；;：:]))(?!谁)(?:[^，。！？；]{{0,6}}?{HELD})?(?P<obj>[\u4e00-\u9fffA-Za-z0-9]{{2,12}}?)(?:都|现在|以后)?归我管"
       r"(?!了?[？?吗])", 0.75, subject="speaker",
       kind="value", trigger="归我管"),
    # …项目先交给我, 产线排班以后归我: the speaker takes it on
    zh("RESPONSIBLE_FOR", rf"(?:^|(?<=[，,；;：:]))(?!谁)(?:[^，。！？；]{{0,6}}?(?:手上的?|手头的?|{HELD}))?(?P<obj>[\u4e00-\u9fffA-Za-z0-9]{{2,12}}?)"
       rf"(?:这|那)?(?:个|些)?(?:项目|客户)?(?:以后|之后|暂时|先|都|全部)?(?:交给|转给|归)我{TAKES_ON}(?!了?[？?吗])", 0.75,
       subject="speaker", kind="value", negatable=False, handover=True, trigger="交给我|转给我|归我"),
    # 客户先这么分：康泰医疗给小贺，华信证券给老周 — a customer handed to a colleague, one per clause
    zh("RESPONSIBLE_FOR", rf"(?:^|(?<=[，,；;：:]))(?P<obj>[\u4e00-\u9fffA-Za-z0-9]{{2,10}}?)(?:先|都|暂时)?(?:给|归){PERSON}"
       rf"(?=[，。！；]|$)", 0.7, subject="group", subject_type="person", named_subject=True, kind="entity",
       object_type="organisation", require_mention=True, strict=True, handover=True, trigger="给|归"),
    # 智云CRM迁移项目的负责人定为邱实: whom a thing's owner is said to be
    zh("RESPONSIBLE_FOR", rf"(?:^|(?<=[，,；;：:]))(?P<obj>[\u4e00-\u9fffA-Za-z0-9]{{2,12}}?)的负责人(?:定为|定成|改为|换成|是|为|：|:)"
       rf"{PERSON}(?=[，。！；]|$)", 0.75, subject="group", subject_type="person", named_subject=True, kind="value",
       negatable=False, trigger="的负责人"),
    # 青禾食品这边我接手了, 瑞丰农业我接回来了, 蓝鲸二期我来跟: the speaker takes it on, said after it
    zh("RESPONSIBLE_FOR", r"(?:^|(?<=[，,；;：:～~]))(?!谁|这个|那个|这事|这件)(?P<obj>[\u4e00-\u9fffA-Za-z0-9]{2,10}?)(?:这边|那边|这块)?"
       r"(?:以后|之后|现在)?我(?:已经)?(?:接手了|接回来了|接过来了|来跟|来对接|来负责)(?=[，。！；]|$)", 0.75,
       subject="speaker", kind="value", negatable=False, trigger="我接|我来跟|我来对接|我来负责"),
    # not 跟进下… (一下: a one-off follow-up) nor 钱主管说 (a title before a speech verb)
    # nor 运维主管苗青松 (a title), nor 新接手的是袁芳 (who, not what, is taken on)
    zh("RESPONSIBLE_FOR", rf"(?:负责(?!人(?![事力才员工]))|改管|分管|(?<!运维)(?<!安全)(?<!技术)(?<!财务)(?<!行政)(?<!人事)"
       rf"(?<!产品)(?<!质量)(?<!生产)(?<!部门)(?<!项目)(?<!销售)(?<!采购)(?<!客服)主管(?![说讲称提评反])|接管|接手(?!的)"
       rf"|跟进(?!一?下(?![午周个月次半]))"
       rf"(?![^，。；]{{0,6}}?(?:结果|进度|情况|反馈)|\s?记录))"  # 跟进测试结果: a to-do; 跟进记录: a heading
       rf"(?![^，。；的]{{1,8}}的[\u4e00-\u9fff]{{2,3}}(?:已经|已|调|离职|走了|去了))(?P<obj>[^{ZH_STOP}]{{1,15}}?)"
       r"(?=[，。！？；,.!?;、\s：:]|了|吧|呢|啊|以后|之后|归|交给|由|$)", 0.8, kind="value",
       trigger="负责|改管|分管|主管|接管|接手|跟进", stop="UNASSIGNED_FROM"),
    zh("RESPONSIBLE_FOR", rf"(?:手上的|手头的|我的|我们的|{HELD}|(?:原来|之前|以前)的?)?(?P<obj>[\u4e00-\u9fff]{{2,6}}?(?:[和、][\u4e00-\u9fff]{{2,6}}?)*)"
       rf"(?:(?:这|那)(?:[两三四五几]个|些)(?:客户|项目|账号|单子)?|(?:这边|那边)的(?:客户|工作|事情?|活))?"
       rf"(?:暂时|先|都|全部|会|将|已经)*(?:交给|转给|移交给|交接给)了?{PERSON}{TAKES_ON}", 0.8, subject="group",
       subject_type="person", kind="value", split=True, handover=True, negatable=False, supposable=True,
       trigger="交给|转给|移交给|交接给"),  # 他原来带的天津组交给章琦: 原来 is the giver's past, no negation
    *ZH_DEAL_PATTERNS,
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
    zh("STOPPED_USING", rf"(?:停用了?|弃用了?|换掉了?|卸载了?|删掉了?|注销了?|退订了?|戒掉了?|戒了)(?!的)(?P<obj>[^{ZH_STOP}]{{0,15}}?)"
       rf"(?=[{ZH_STOP}]|了|吧|呢|啊|$)", 0.85, kind="value", antecedent=True, negatable=False,
       trigger="停用|换掉|卸载|删掉|注销|退订|戒"),
    # 滴滴企业版停用, 之前那个用友报销模块同步停用, 钉钉那边的审批流本周五关闭: a tool retired, said first
    zh("STOPPED_USING", r"(?:^|(?<=[，,；;：:\s]))(?:之前那个|原来的|之前的|旧的?|老的?)?"
       r"(?P<obj>[A-Za-z0-9\u4e00-\u9fff]{2,12}?)(?:那边的?[\u4e00-\u9fff]{1,4}?)?"
       r"(?:将|会|也|同步|正式|本周[一二三四五六日]|[下本]?月底|下周[一二三四五六日]?)?(?:停用|下线|关停|关闭)(?![的吗？?])",
       0.8, require_mention=True, whole=True, negatable=False, object_type="product", supposable=True,
       trigger="停用|下线|关停|关闭"),
    # 报销统一走飞书审批, 差旅统一走携程商旅, 改回用讯飞听见: the tool a team uses from now on
    zh("USES", r"(?:统一|全部|一律)(?:走|用|使用|改用)(?!新版|旧版|这个|那个|这种|线上|线下|纸质)"
       r"(?P<obj>[A-Za-z0-9\u4e00-\u9fff]{2,10}?)"
       r"(?=下单|提交|办理|线上|审批|[，。！？；、\s]|了|$)", 0.75, kind="value", supposable=True,
       trigger="统一走|统一用|统一使用|统一改用|全部走|全部用|一律走|一律用"),
    zh("USES", r"改回(?:用|使用)?(?P<obj>[A-Za-z0-9\u4e00-\u9fff]{2,10}?)(?=[，。！？；、\s]|了|$)", 0.75, kind="value",
       supposable=True, trigger="改回"),
    # 钢琴学了两年还是放弃了: what one gave up, said first
    zh("STOPPED_USING", r"(?:^|(?<=[，。；]))(?P<obj>[\u4e00-\u9fff]{2,4}?)(?:学了|练了|弹了|玩了|坚持了|跑了)[^，。！？；]{0,6}?"
       r"(?:还是|最后|终于|就)?放弃了", 0.8, kind="value", negatable=False, trigger="放弃了"),
    zh("STOPPED_USING", rf"把{zh_obj_before('卸载|删|删掉|停用|注销|退订|戒')}", 0.85, kind="value", negatable=False,
       trigger="卸载|删|停用|注销|退订|戒"),
    zh("STOPPED_USING", rf"(?:不再|已经不|再也不|不)(?:在|上){ZH_NOT_STOP}{{0,2}}?(?P<obj>[^{ZH_STOP}]{{2,8}}?)上"
       rf"(?:发|看|买|玩|用|刷|写)", 0.8, kind="value", negatable=False, trigger="不"),
    zh("STOPPED_USING", rf"从{zh_obj_before('换成|换到|改用|迁移到|切换到|切到|转到')}", 0.85, require_mention=True,
       negatable=False, object_type="product", trigger="换成|换到|改用|迁移到|切换到|切到|转到"),
    # 宽带从电信换成了联通: a provider no dictionary knows, given up for one it does (a name, not a time)
    zh("STOPPED_USING", r"从(?![\d一二三四五六七八九十两上下本这每周星期今明昨去前])(?P<obj>[\u4e00-\u9fffA-Za-z]{2,6}?)"
       r"(?:换成|改用|切换到)了?(?=[\u4e00-\u9fffA-Za-z])", 0.75, kind="value", negatable=False,
       trigger="换成|改用|切换到"),
    # a tool given up for another or stopped: 把企业微信换成了飞书, 把Trello停了, Jira我们不用了,
    # 以前用安卓，上个月换成了iPhone (the one switched to is USES, below)
    zh("STOPPED_USING", rf"把{zh_obj_before('换成|换为|替换成|替换为|迁移到|迁到|停(?=了|掉)')}(?![^，。！？；]*(?:格式|界面|模式|版本))",
       0.85, require_mention=True, whole=True, negatable=False, object_type="product", trigger="把"),
    zh("STOPPED_USING", r"(?:^|(?<=[，,；;]))(?:原来的|之前的|以前的|之前那个)?(?P<obj>[A-Za-z][A-Za-z0-9.+-]{1,20}|"
       r"[\u4e00-\u9fff]{2,8}?)(?:我们组|我们部门|我们团队|我们|我)?(?:已经|早就|现在|基本上?|都|也|再也)*(?:不再|不)用了"
       r"(?![？?吗解])", 0.8,
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
    zh("STOPPED_USING", r"(?:^|(?<=[，,；;：:]))(?P<obj>(?:(?!的|决定|打算|表示|觉得|认为|倾向|考虑|想)[\u4e00-\u9fffA-Za-z0-9]){0,8}?)(?:到期)?(?:就|也)?(?<!还)(?<!暂时)"
       r"(?<!还没)(?:没续|没有续|不续了|不再续)(?!上)",
       0.75, kind="value", antecedent=True, negatable=False, trigger="续"),
    # 现在改成每天早上跑步, 天天去钓鱼: a habit is a liking
    zh("LIKES", rf"(?<!想)(?<!要)(?<!以后)(?:每天|天天|每周|每个?周末|周末|经常|平时|一般|每晚|改成|迷上了?)"
       rf"(?:(?!逼|让|叫|想|希望|要|得|可以|能)[^，。！？；]){{0,12}}?(?:去|在)?(?P<obj>{ACTIVITY})"
       rf"(?![\u4e00-\u9fff]*(?:课|班|比赛))(?!的)(?![^，。！？]*(?:累|烦|辛苦|痛苦))", 0.75, kind="value",
       negated="DISLIKES", supposable=True, trigger="每天|天天|每周|周末|经常|平时|一般|每晚|改成|迷上"),
    # 就是不吃香菜和葱: food one does not eat (不吃…了, a stop, is below)
    zh("DISLIKES", r"(?<!孩子)(?<!孩子就是)(?<!宝宝)(?<!宝宝就是)(?:^|(?<=[，,；;])|(?<=^我)|(?<=[，,；;]我)|从来|一般|就是)不(?:吃|喝)(?![亏苦醋软])(?P<obj>(?:(?!了|不)[\u4e00-\u9fff]){1,4}?"
       r"(?:[和、跟](?:(?!了|不)[\u4e00-\u9fff]){1,4}?)*)(?=[，。！？；]|$)", 0.75, kind="value", split=True,
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
    # 不用等了, 不用来了: "no need to", not a stop
    zh("STOPPED_USING", rf"(?:已经|早就|再也)?不(?!用(?:等|急|着急|担心|操心|客气|谢|麻烦|管|来|去|说|回|找|再|重|寄|送|交|付|退|改|换|加|补))"
       rf"{DO}(?P<obj>[^{ZH_STOP}]{{0,6}}?)了", 0.8, kind="value",
       antecedent=True, negatable=False, trigger="不"),
    zh("STOPPED_USING", rf"(?:不再|再也不|没再|很久没|好久没){DO}(?P<obj>[^{ZH_STOP}]{{1,10}}?)(?=了|[{ZH_STOP}]|$)", 0.8,
       kind="value", negatable=False, trigger="不再|再也不|没再|很久没|好久没"),
    zh("STOPPED_USING", r"戒(?:掉)?了?(?P<obj>烟|酒|糖|咖啡|奶茶|可乐|游戏|手机|甜食|夜宵|宵夜|零食|辣)", 0.85, kind="value",
       negatable=False, trigger="戒"),
    zh("USES", rf"(?:换成了?|改用了?|迁移到了?|迁到了?|切换到了?|转用了?)(?![^{ZH_STOP}]{{0,10}}?(?:格式|界面|模式|版本)){ZH_OBJ}", 0.85,
       object_type="product", supposable=True,  # not 考虑换成百度网盘, 建议换成怡宝
       trigger="换成|改用|迁移到|迁到|切换到|转用"),
    zh("USES", rf"切到了?{ZH_OBJ}", 0.8, require_mention=True, object_type="product", trigger="切到"),  # not 切到后台
    # 从纷享销客切到销售易: a tool left for another, both named (not 从周三改到周五)
    zh("STOPPED_USING", r"从(?P<obj>[\u4e00-\u9fffA-Za-z0-9]{2,8}?)(?:整个)?(?:切到|切换到|迁移到)了?"
       r"(?=[\u4e00-\u9fffA-Za-z0-9]{2,8}(?:了|[，。；！]|$))", 0.8, kind="value", negatable=False,
       trigger="切到|切换到|迁移到"),
    zh("USES", r"从[\u4e00-\u9fffA-Za-z0-9]{2,8}?(?:整个)?(?:切到|切换到|迁移到)了?"
       r"(?P<obj>[\u4e00-\u9fffA-Za-z0-9]{2,8}?)(?=了|[，。；！]|$)", 0.8, kind="value",
       trigger="切到|切换到|迁移到"),
    # how one gets to work: 骑电动车上班, 平时坐地铁, 下雨天就打车 (a trip, 今天坐地铁去的, is no habit)
    zh("USES", rf"(?:{HABIT})(?:骑|坐|搭|乘)(?P<obj>{RIDES})", 0.8, kind="value", trigger="骑|坐|搭|乘"),
    zh("USES", rf"(?:骑|坐|搭|乘)(?P<obj>{RIDES})(?=(?:去|来)?(?:上班|上学|通勤))", 0.8, kind="value",
       trigger="骑|坐|搭|乘"),
    zh("USES", rf"(?:(?:{HABIT})(?=打)|(?=打[车的](?:去|来)?(?:上班|上学|通勤)))(?P<obj>打车|打的)", 0.8,
       kind="value", trigger="打车|打的"),
    # 公司在科技园那边: where one works, said of the company (a named company's seat is LIVES_IN)
    zh("WORKS_FROM", r"(?<![\u4e00-\u9fffA-Za-z])(?:我们|我的)?公司(?:就)?在(?P<obj>[\u4e00-\u9fff]{2,8}?"
       r"(?:(?<=[园区路街村镇城港湾岛楼门桥口厦场])|(?=那边|那儿|附近|这边)))(?:那边|那儿|附近|这边)?(?=[，。！？；,.!?;]|$)",
       0.75, kind="value", trigger="公司"),
    zh("WORKS_FROM", r"(?<![\u4e00-\u9fffA-Za-z])(?:我们|我的)?公司(?:就)?在(?P<obj>[\u4e00-\u9fff]{2,8}?)(?=[，。！？；,.!?;]|$)",
       0.75, require_mention=True, strict=True, object_type="place", trigger="公司"),  # 公司在望京: a place named
    zh("USES", rf"(?:改喝|改吃(?!素)|改看|改听|改玩)(?P<obj>[^{ZH_STOP}]{{1,10}}?)(?=[{ZH_STOP}]|了|$)", 0.75, kind="value",
       trigger="改喝|改吃|改看|改听|改玩"),  # 不喝奶茶了，现在改喝无糖豆浆
    zh("USES", rf"(?:搬到|迁到|转到|放到|挪到|记在|放在)了?{zh_obj_before('里|上')}", 0.75, require_mention=True,
       object_type="product", trigger="搬到|迁到|转到|放到|挪到|记在|放在"),
    zh("USES", rf"(?:在用(?!的)|使用|用的是|用着|一直用)(?!挺|很|还|不错|特别|非常|蛮|真){ZH_OBJ}", object_type="product",
       stop="STOPPED_USING",  # not 用着挺好的: how it works, not what is used
       trigger="在用|使用|用的是|用着|一直用"),
    zh("USES", rf"用的(?:是|还是|一直是)(?P<obj>[^{ZH_STOP}]{{1,15}}?)(?=[{ZH_STOP}]|$)", 0.75, require_mention=True,
       object_type="product", trigger="用的"),  # 他们现在用的是用友U8
    zh("USES", rf"(?<![弃停])用{ZH_OBJ}", 0.75, require_mention=True, object_type="product", stop="STOPPED_USING",
       supposable=True, trigger="用"),  # 考虑用Seata: not yet
    # 我老婆芒果过敏: a common allergen said without 对 (皮肤过敏 names none)
    zh("ALLERGIC_TO", rf"(?<!对)(?P<obj>{ALLERGENS})(?:都|也|有点|特别|严重)?过敏", 0.8, kind="value", trigger="过敏"),
    zh("ALLERGIC_TO", r"对(?P<obj>[\u4e00-\u9fffA-Za-z]{1,8}?(?:[、和跟及][\u4e00-\u9fffA-Za-z]{1,8}?)*)(?:都|也|有点|特别|严重)?过敏",
       0.9, kind="value", split=True, trigger="过敏"),  # 我对芒果、花生都过敏
    # 我吃素 → 吃素 (素 alone names no diet), 是素食者 → 素食
    zh("DIET", r"(?:是|(?=吃)|改(?=吃))(?P<obj>素食|吃素|吃纯素|吃全素|纯素|全素|清真)(?:者|主义者)?", 0.85, kind="value",
       trigger="素|清真"),
    zh("LIKES", rf"(?<![更不最])(?:喜欢上了?|喜欢|爱吃|爱喝|爱玩|爱看|热爱|超爱|特爱|巨爱|爱上了|迷上了?|着迷于?|沉迷于?|痴迷于?|是[^，。]{{1,8}}的粉丝|"
       rf"对{ZH_NOT_STOP}{{1,8}}?(?:很|特别|非常)?感兴趣)(?![和跟与同])"  # 喜欢和鼎新电子的团队合作: with whom, not what
       rf"{ZH_OBJ}", 0.85, kind="value",
       trigger="喜欢|爱吃|爱喝|爱玩|爱看|热爱|超爱|特爱|巨爱|爱上|迷上|着迷|沉迷|痴迷|粉丝|感兴趣", negated="DISLIKES"),
    zh("INTERESTED_IN", rf"(?:对(?!方对)){zh_obj_before('(?:很|特别|非常|挺)?感兴趣')}", 0.85, kind="value",
       trigger="感兴趣"),
    zh("INTERESTED_IN", rf"(?:爱好|兴趣)(?:是|有|就是){ZH_OBJ}", 0.85, kind="value", split=True, trigger="爱好|兴趣"),
    # ── places visited, plans, goals ─────────────────────────────────────────────────────
    zh("ATTENDED", rf"(?<!放弃)(?<!不想)(?<!取消)参加(?![不没])(?:了|过)?(?!一?下(?:[{ZH_STOP}]|$)){ZH_OBJ_LONG}", 0.8, kind="value",
       future="PLANS_TO", trigger="参加"),  # 参加下: 一下; 参加不了: not going
    zh("PLANS_TO_VISIT", rf"(?:去|到){zh_obj_before('参观|考察|拜访|旅游|旅行|玩|出差|参加|看|度假|开会|过年|探亲|见|陪|聚|谈|签')}",
       0.85, past="VISITED", require_mention=True, object_type="place", trigger="去|到"),
    zh("PLANS_TO_VISIT", rf"(?<![起高])飞(?:了)?(?:一趟|趟)?(?:往|去|到|回)?(?![^，。！？；]*?(?:航班|机票))"  # 飞成都的航班
       rf"{ZH_OBJ}", 0.8, past="VISITED", require_mention=True,
       object_type="place", trigger="飞"),
    # not 想去互联网公司 (a job wanted, not a visit)
    zh("PLANS_TO_VISIT", rf"(?:打算|计划|准备|想|要(?!是)|将|会)[^，。！？；]{{0,6}}?(?<![调派扩])(?<!调岗)(?<!推广)(?:去|到)"
       rf"(?!读|念|上学|考|[^，。！？；]{{0,6}}?(?:公司|企业|大厂)(?:[，。！？；]|$)){ZH_OBJ}", 0.85,
       past="VISITED", require_mention=True, object_type="place", trigger="打算|计划|准备|想|要|将|会"),
    zh("PLANS_TO_VISIT", rf"(?:参观|拜访|考察)(?:了|完了?|过)?{ZH_OBJ}", 0.8, past="VISITED", require_mention=True,
       whole=True, trigger="参观|拜访|考察"),  # 拜访成都天府医院信息科: the customer visited, not 成都
    zh("VISITED", rf"(?:(?<![调派])去过|(?<![调派学])去了|到过(?!年|节)|玩了|逛了)(?:一趟|一次|趟|次)?{ZH_OBJ}", 0.85, require_mention=True,
       object_type="place", trigger="去过|去了|到过|玩了|逛了"),
    zh("GOAL", rf"(?:目标是|想成为|梦想是|梦想成为|理想是|心愿是){ZH_OBJ}", 0.8, kind="value",
       trigger="目标|想成为|梦想|理想|心愿"),
    zh("PLANS_TO", rf"(?:打算|(?<![按原])计划(?![^{ZH_STOP}]{{0,8}}?了)|准备(?!一?下(?![午周个月次半]))|想要|决定)(?![^{ZH_STOP}]{{0,4}}?[不没别])"
       rf"(?!好|把[^{ZH_STOP}]{{0,6}}的|[\d一二三四五六七八九十下本这]+[月周号日])"  # 要准备好技术细节: a to-do; 决定把明年的…改到: said
       rf"{ZH_OBJ}(?!的)", 0.7, kind="value",  # later; 计划8月1日上线: a launch date, no plan of the writer's
       trigger="打算|计划|准备|想要|决定"),
    # ── people and animals ───────────────────────────────────────────────────────────────
    # 领养了一只三花，取名芝麻; 捡了只橘猫，起名叫年糕: a pet named when it came
    zh("HAS_PET", rf"(?:领养了?|收养了?|捡了?|买了?|接回了?|抱回了?|新来了|来了|添了|多了)(?:一只|一条|两只|只|条)?(?P<kind>{PET})[，,]?"
       r"(?:取名|起名|名字)叫?(?P<obj>[\u4e00-\u9fff]{1,4}?)(?=[，。！？；,]|$)", 0.85, kind="entity",
       object_type="animal", trigger="取名|起名|名字"),
    # 家里新来了只金毛，叫栗子: a pet arrived, named in the next clause
    zh("HAS_PET", rf"(?:新来了|新添了|来了|添了|多了|领了|领养了|收养了|捡了)(?:一只|一条|两只|只|条)(?P<kind>{PET})"
       rf"(?:[，,][\u4e00-\u9fff]{{1,4}})?[，,](?:叫|名叫)"
       r"(?P<obj>[\u4e00-\u9fff]{1,3}?)(?=[，。！？；,]|$)", 0.85, kind="entity", object_type="animal",
       trigger="叫"),
    zh("HAS_PET", rf"(?<![友人居戚事学舅姨叔姑婆奶爷姐哥弟妹他她])(?:家里|家)(?:那只|的|那条)?(?:老)?(?P<kind>{PET})[“\" ]?(?P<obj>(?![\u4e00-\u9fff]?了){_NOT_A_TIME}"
       rf"[\u4e00-\u9fff]{{2}})[”\" ]?(?=[有很也都在最又今昨刚总还特上前会做丢病被]|去年|走了|没了|死了|去世|送人|[，。！]|$)",
       0.75, kind="entity", object_type="animal", introduces=True, trigger="家"),  # 家里那只老布偶年糕有点吃醋, 我家猫咪“团子”今天…
    # 我们家猫猫丢了！！…叫芝麻, 家里的鹦鹉…名字叫小绿: one's pet, named later in the sentence
    zh("HAS_PET", rf"(?:我|我们)家(?:里)?(?:的|那只)?(?P<kind>{PET})[^。！？!?]{{0,30}}?[，,](?:它)?(?:名字)?叫[“\"]?"
       r"(?P<obj>[\u4e00-\u9fff]{1,3}?)[”\"]?(?=[，。！？；,]|$)", 0.8, kind="entity", object_type="animal",
       introduces=True, trigger="叫"),
    # 我家那只柯基叫可乐: one's pet named right after its kind
    zh("HAS_PET", rf"(?:我|我们)家(?:里)?(?:的|那只|那条)?(?P<kind>{PET})(?:叫|名叫)[“\"]?(?P<obj>[\u4e00-\u9fff]{{1,3}}?)[”\"]?"
       r"(?=[，。！？；,]|$)", 0.85, kind="entity", object_type="animal", trigger="叫"),
    # 养了两只仓鼠，一只叫饺子一只叫汤圆: two pets, each named
    zh("HAS_PET", rf"(?:养了?|有|领养了?)(?:两只|两条|俩)(?P<kind>{PET})[，,]?(?:一只|一个|一条)叫(?P<obj>[\u4e00-\u9fff]{{1,3}}?)"
       r"[，,]?(?:一只|一个|一条|另一只)叫", 0.8, kind="entity", object_type="animal", trigger="一只叫|一条叫"),
    zh("HAS_PET", rf"(?:养了?|有|领养了?)(?:两只|两条|俩)(?P<kind>{PET})[，,]?(?:一只|一个|一条)叫[\u4e00-\u9fff]{{1,3}}?"
       r"[，,]?(?:一只|一个|一条|另一只)叫(?P<obj>[\u4e00-\u9fff]{1,3}?)(?=[，。！？；,]|$)", 0.8, kind="entity",
       object_type="animal", trigger="一只叫|一条叫"),
    # 它叫“可乐”，柯基，两岁了: a pet named, then its kind
    zh("HAS_PET", rf"它(?:叫|名叫)[“\"]?(?P<obj>[\u4e00-\u9fff]{{1,3}}?)[”\"]?[，,](?:是)?(?:一只)?(?P<kind>{PET})", 0.8,
       kind="entity", object_type="animal", trigger="它叫|它名叫"),
    zh("HAS_PET", rf"(?:养了?|有)(?:一只|一条|两只|只|条|一匹)?(?P<kind>{PET})(?:，|,)?(?:叫|名叫|名字叫)"
       r"(?P<obj>[\u4e00-\u9fff]{1,4}?)(?=[，。！？；,]|$)", 0.85, kind="entity", object_type="animal",
       trigger="养|有"),
    # the kind only: a breed kept (养的布偶猫叫奶盖, 领养了一只三花，取名芝麻) is named by the patterns above
    zh("HAS_PET", r"养了?(?:一只|一条|两只|只|条)?(?P<obj>[\u4e00-\u9fff]{0,2}?(?:猫|狗|猫咪|狗狗|兔子|鹦鹉|仓鼠|乌龟))"
       r"(?![，,]?(?:叫|名叫|名字叫))", 0.8,
       kind="value", supposable=True, trigger="养"),  # 想再养一只狗: a wish
    zh("HAS_PET", rf"(?:狗|猫|猫咪|狗狗|金毛|泰迪|柯基|哈士奇|柴犬|布偶|英短|美短|边牧|萨摩耶|比熊|橘猫)(?:叫|名叫|的名字是)"
       rf"{ZH_NAME}", 0.85, kind="entity", object_type="animal",
       trigger="叫|名字"),
    # 我爸上周做了心脏搭桥手术: an operation as news, dated by its words (after the pets: 我家猫 橘子 昨天做了绝育手术 is the cat's)
    zh("STATUS", r"(?<!没)(?<!不)(?<!要)做了(?:个|一个|一场)?(?P<obj>[\u4e00-\u9fff]{0,6}?手术)", 0.8, kind="value",
       supposable=True, trigger="手术"),
    *ZH_COUPLE_PATTERNS,
    *ZH_WORK_PATTERNS,
    zh("BIRTHDAY", rf"生日(?:是|在|为)?{ZH_DATE}", kind="birthday", trigger="生日"),
    zh("BIRTHDAY", rf"(?:是|在)?{ZH_DATE}(?:出生的|出生|生的)", kind="birthday", trigger="出生|生的"),  # 儿子12月18号出生的
    zh("BIRTHDAY", rf"过生日[，,（(]\s?(?:就是|是)?{ZH_DATE}", kind="birthday", trigger="生日"),  # 下周三过生日，6月5号
    zh("AGE", r"(?:今年|已经|现在)(?:整|满)?(?P<obj>\d{1,3}|[一二两三四五六七八九十]{1,3})(?:岁|周岁|了|(?=[，。！]|$))",
       kind="number", trigger="岁|了|今年"),
    zh("AGE", r"都(?P<obj>\d{1,3}|[一二两三四五六七八九十]{1,3})(?:岁|周岁)", kind="number", trigger="岁"),  # 我外婆都85岁了
    zh("AGE", r"(?<![下上])(?:刚|才|已经|今年)满(?P<obj>\d{1,3}|[一二两三四五六七八九十]{1,3})(?:岁|周岁)", kind="number",
       trigger="满"),  # 我孙子刚满三岁
    # 我家猫咪叫馒头，三岁了; 下个月满4岁; 今天满三岁了: an age closing its clause (not 大三岁, 大的8岁, 一个5岁, 一岁半, 三岁的孩子, 5岁以下)
    zh("AGE", r"(?<![大小差比的个\d一二两三四五六七八九十])满?(?P<obj>\d{1,3}|[一二两三四五六七八九十]{1,3})(?:岁|周岁)了?"
       r"(?=[，。！!～~🎂\s]|$)", 0.75, kind="number", trigger="岁"),
    zh("AGE", r"(?P<obj>\d{2,3}|[六七八九]十|一百)大寿", 0.8, kind="number", trigger="大寿"),  # 我爸下个月六十大寿
)  # fmt: skip
