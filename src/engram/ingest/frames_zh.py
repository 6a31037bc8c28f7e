"""The words the Chinese fact patterns are made of: a name, a count, a role with its team, a leaving
said, faults, pets, allergens, rides, pastimes (shared by ``engram.ingest.patterns_zh`` and
``engram.ingest.patterns_zh_deals``)."""

from __future__ import annotations

import re

from engram.ingest.frames import ZH_ROLE, ZH_STOP
from engram.nlp.names import CHINESE_TITLES

ZH_NOT_STOP = rf"[^{ZH_STOP}]"
DIGITS = r"\d{1,3}(?:,\d{3})+|\d+"
"""A number in digits, its thousands commas included (3,500片: 3500, not 500)."""
COUNT = (
    r"(?<![少多漏差])(?<![少多漏差][送发寄给了])(?<![少多漏差][送发寄给]了)"
    rf"(?:{DIGITS}|[一二三四五六七八九十百千两]+)(?:台|套|个(?!工作日|小时|月|星期|礼拜|人)|件|份|箱|张|部|块|支|辆|把|袋|吨|瓶|盒|包|桶|双|本)"
)
"""A count of things ordered (500台, 八十个), not one missing (少送了一份) nor a span of days (5个工作日)."""
HELD = r"(?:(?:现在|原来|之前|以前)?(?:在)?(?:管|带|负责|跟)的)"
"""What one held, said before it is handed over (现在管的测试组, 原来跟的小程序)."""
ZH_NOT_HELD = "".join(
    rf"(?<!{start}{former}{team})"
    for start in ("^", "[，。；：:｜|\\s]")
    for former in ("原", "前任")
    for team in ("", *(rf"[A-Za-z0-9\u4e00-\u9fff]{{{n}}}" for n in range(1, 7)))
)
"""Not a role held once (原BI组组长蒋雯转岗…, 前任店长): a clause opening with 原 or 前任 before it."""
TAKES_ON = r"(?:来)?(?:带|管|跟|负责|接)?(?=[，。！；了]|$)"
"""How the one handed something takes it on, if said (交给小严带)."""
CONTACT_NAME = (
    r"(?:(?:他们|对方)(?:公司|那边)?的?)?(?:[\u4e00-\u9fff]{1,6}?(?:部|科|处|组|办公室|办)的)?"
    rf"(?:[\u4e00-\u9fffA-Za-z]{{2,8}}?的(?={ZH_ROLE}))?(?:新来的)?(?:(?:{ZH_ROLE}|负责人|对接人|联系人)\s?)?(?P<obj>[\u4e00-\u9fff]{{2,4}}?|[A-Z][a-z]+(?: [A-Z][a-z]+)?)"
    r"(?=[，。！？；,.!?;、\s(（｜|]|$|也|都|在|是|和|的|跟|说|了|负责|对接|聊|要求|希望|确认|答应|同意|回复|建议|催|已|刚|表示|"
    r"答复|拍板|反馈)"
)
PERSON = (
    r"(?P<subj>(?![的是在了和跟与把被给对人说讲问让请从])(?!项目|系统|方案|产品|合同|订单|问题|数据|团队|部门|平台|接口|周转|管理员|工作人员|客服)"
    rf"(?!(?:{ZH_ROLE})(?![\u4e00-\u9fff]))"  # 老公是谷歌的工程师: a role ending the clause names no one
    r"[\u4e00-\u9fff]{2,3}?|小[\u4e00-\u9fff]|老[\u4e00-\u9fff])"
    r"(?:[（(][\u4e00-\u9fff]{2,4}[）)])?"
)
"""A name: two or three characters (no particle first: "经理的微信是…" names no one, nor a common noun
surnames begin: 华睿医疗的项目), 小X or 老X, with
the full name it may be given in brackets (小周（周宇航）: engram.ingest.aliases)."""
PAST_WORDS = (
    r"(?:上周[一二三四五六日天末]?|上个?月|昨天|前天|今天|刚刚?|已经?|早就|去年|今年|前年|最近|年初|月初|前段时间|前阵子|之前|也|都|"
    r"正式|终于|突然|(?<=年|前)就|"
    r"[一二三四五六七八九十两几\d]+(?:年|个月|周|天)前|[一二三四五六七八九十\d]{1,2}月份?)*"
)
"""What may stand between a subject and a verb of leaving that happened (not 打算, 下个月; 就 only
after a past time: 前年就退休了, but 等项目结束我就辞职了 is still to come)."""
BEFORE_A_NAME = "[跟和与同给找让向对在从约了是说]"
NAME_START = rf"(?:^|(?<=[^\u4e00-\u9fffA-Za-z])|(?<={BEFORE_A_NAME}))(?!{BEFORE_A_NAME})"
"""Where a name may begin: not inside a word, but after a preposition (跟绿源农业刘总: 绿源农业)."""
TITLES = "|".join(CHINESE_TITLES)
NOT_A_ROLE = rf"(?!(?:{ZH_ROLE})汇报)"
"""Not a role alone before 汇报 (向销售总监汇报 names nobody)."""
_LEAVES_WHEN = (
    r"(?:(?:月底|月初|年底|下个?月(?:初|底|中旬?)?|下周[一二三四五六日天]?|明天)就?|还是|也|"
    r"因[\u4e00-\u9fff]{2,6}|已?于?\d{1,2}月\d{1,2}[日号]|已?于)*"
)
"""When a leaving is said to happen, or why, between the person and the verb (我月底离职了, 我还是被裁了,
陈凯因个人原因已于3月31日离职, 孙立伟下个月离职): the fact is dated by these words."""
LEFT_SAID = rf"是?{PAST_WORDS}{_LEAVES_WHEN}(?:离职|辞职|退休|被裁|被辞退|被开除)(?:了|的)?(?:[一二三四五六七八九十两几半\d]+个?(?:月|年|周|星期|天)多?了?)?"
"""A leaving that happened, the employer unsaid: 离职了, 是上个月离职的, 辞职三个月了, 被裁了."""
NOT_A_TIME = r"(?!周[一二三四五六日天末]|星期|礼拜|[今明昨后前]天|[上下本这]周|[上下本这]个?月|月[初底中]|年[初底]|[上下]午|晚上|早上|中午)"
"""What follows a role is no name when it is a time (工程师周五上门)."""
ORG = r"(?P<obj>[\u4e00-\u9fffA-Za-z0-9]{2,12}?)"
DEPT = r"(?P<obj>[\u4e00-\u9fff]{2,5}?部)"
ISSUES = (  # literal words only: they are also the patterns' trigger words
    "卡纸|死机|黑屏|白屏|蓝屏|花屏|断线|掉线|闪退|漏水|漏电|跳闸|发热|发烫|坏了|出问题|出故障|报错|崩溃|卡顿|没反应|"
    "打不开|连不上|失灵|延迟太高|不制冷|不制热|打不着火|登不上去|登不上|登录不了|无法登录|开不了机|无法开机|充不进电|"
    "充不上电|异响|噪音大|噪音很大|不出水|不出热水|掉帧|同步失败|识别不了|迷路"
)
LEFT_FOR = r"(?:离职|辞职|跳槽|被裁|offer|换了?(?:个|份)?工作)了?[（(，,]?(?:听说|据说)?"
"""A job left or changed, then where one went (离职（去了美团）, 换了工作，去了中石化): the new employer."""
PET = (
    r"[\u4e00-\u9fff]{0,2}?(?:猫|狗|猫咪|狗狗|兔子|鹦鹉|仓鼠|乌龟|金鱼|鸟|金毛|泰迪|柯基|哈士奇|柴犬|布偶|英短|"
    r"拉布拉多|边牧|萨摩耶|比熊|博美|蓝猫|狸花|三花|橘猫|奶牛猫|田园犬|土狗|串串|猫猫)"
)
NEAR = r"(?:旁边|附近|对面|隔壁|门口|楼下|楼上|周边|边上)"
"""After a place or a school, a landmark said for where something is (住在汉堡王旁边, 在新城中学门口)."""
DO = r"(?:吃|喝|抽|玩|用|看|弹|练|打(?!算|扰|听|招呼)|跑|去|做|买|听)"
ALLERGENS = (
    "芒果|花生|海鲜|虾|螃蟹|青霉素|头孢|花粉|尘螨|猫毛|狗毛|牛奶|鸡蛋|坚果|小麦|麸质|酒精|芝麻|大豆|桃子|菠萝|"
    "猕猴桃|磺胺|阿司匹林|鸡肉|牛肉|羊肉|鱼|乳糖"
)
HABIT = r"平时|平常|每天|天天|一般|都是|都|就|经常|通常|基本"
"""Words that make a ride a habit (平时骑车, 下雨天就打车)."""
RIDES = r"电动车|电瓶车|自行车|单车|共享单车|摩托车?|地铁|公交车?|班车|校车|轻轨|轮渡"
ORDER_ID = r"[A-Z]{2,6}-\d{3,}(?:-\d+)*"
"""An order's or a contract's id said in Chinese text (DJ-0612, PO-2401-07)."""
MOVES_ON = "(?:转去|改去|转岗去?|转而)做"
"""Moving on to other work (转去做渠道)."""
MOVED_TO = "延到|延期到|推迟到|推到|顺延到"
"""A date moved to another (延到下周三, 上线…推到10月25号)."""
TEAM_ROLE = rf"(?:[\u4e00-\u9fff]{{1,4}}?(?:组|部|团队|中心|区)|华[东南西北中]|西南|西北|东北)?{ZH_ROLE}"
"""A role, with the team or region it is of (架构组组长, 华南区销售总监, 华北销售总监)."""
ACTIVITY = (
    r"跑步|散步|钓鱼|游泳|爬山|骑行|健身|瑜伽|打(?:羽毛|篮|乒乓|网|排|高尔夫)球|踢(?:足)?球|练字|书法|画画|徒步|"
    r"滑雪|露营|摄影|跳舞|广场舞|太极|撸铁|冥想|遛狗|下棋|唱歌|弹(?:钢琴|吉他|尤克里里)"
)

ZH_ELSEWHERE = re.compile(
    r"(?:原来|之前|以前|曾经)在$|从$|(?:去了|到了|加入了?|去)一家叫[“\"]?$|新公司(?:叫|是)[“\"]?$"
)
"""Before a former employer (原来在GE医疗, 从华为跳槽过来) or one someone moves to (跳槽去了一家叫“途远科技”的公司):
no organisation 他们, a contact or the next person named belongs to."""
