"""Chinese fact patterns of money, dates and deals: budgets, prices, deadlines, meetings, orders,
contracts, customers' contacts and their numbers (a part of the Chinese table,
``engram.ingest.patterns_zh``, in its place).

Ordered as that table is; see ``engram.ingest.frames.Pattern``.
"""

from __future__ import annotations

from functools import partial

from engram.ingest.frames import (
    EMAIL_ADDRESS,
    ZH_AMOUNT,
    ZH_DATE,
    ZH_OBJ,
    ZH_OBJ_LONG,
    ZH_ROLE,
    Pattern,
    pattern,
)
from engram.ingest.frames_zh import (
    CONTACT_NAME,
    COUNT,
    DIGITS,
    ISSUES,
    MOVED_TO,
    ORDER_ID,
    ORG,
    PERSON,
    TEAM_ROLE,
)

zh = partial(pattern, "zh")
_WHEN = r"明晚|今晚|明天|今天|后天|(?:下|本|这)?周[一二三四五六日天末]?|下个?月|这个?月|今年|明年|年底|下次|这次|本次"
"""A time said before an event's name (明晚团建改到后天): when it was, not what it is called."""

_BAR = r"(?:\s*[｜|]\s*|\s+)"
"""Between a signature's parts: spaces or a bar."""

_ZH_ILLNESS = (
    "高血压|糖尿病|贫血|高血脂|脂肪肝|甲亢|甲减|哮喘|过敏性鼻炎|痛风|颈椎病|腰椎间盘突出|腰间盘突出|抑郁症|焦虑症|"
    "胃炎|胃溃疡|心脏病|冠心病|肾结石|胆结石|关节炎|湿疹|偏头痛|高血糖|血糖高|血压高"
)
"""Chronic conditions one is found to have or has (a state of health, STATUS)."""

ZH_DEAL_PATTERNS: tuple[Pattern, ...] = (
    # ── money, dates and deals ───────────────────────────────────────────────────────────
    zh("BUDGET", rf"预算(?![^。！？；]{{0,10}}?(?:月薪|工资|薪资|薪水|时薪))[^。！？；]{{0,10}}?{ZH_AMOUNT}", subject="topic", kind="amount", trigger="预算"),
    zh("BUDGET", rf"{ZH_AMOUNT}的预算", subject="topic", kind="amount", trigger="预算"),
    zh("PRICE", rf"(?:价格|报价|报的(?!不是)|售价|单价|价钱|续约价|续费|价|金额|合同额|总价|总额|年费|月费|服务费|费用|授权费)"
       rf"[^，。！？；]{{0,8}}?{ZH_AMOUNT}", 0.85, subject="topic", kind="amount", trigger="价|续费|金额|合同额|总额|费|报的"),
    zh("PRICE", rf"(?:每年|每月|每个|每台|每套|每份|一年|一个月|一台|一套)(?:是|要|收)?{ZH_AMOUNT}",
       0.85, subject="topic", kind="amount", trigger="每年|每月|每个|每台|每套|每份|一年|一个月|一台|一套"),
    # 6063铝型材每吨涨到2.15万, 每箱调整为128: a unit price changed
    zh("PRICE", rf"每(?:吨|箱|件|斤|公斤|平米|平方米|间|人|柜|颗|米|卷|瓶|盒|包)(?:每月|每年)?"
       rf"(?:涨到|降到|调到|调整为|上调到|下调到|改为|维持)?{ZH_AMOUNT}(?![瓶罐个包件支袋盒箱人份台套只张本颗粒片条])", 0.8,
       subject="topic", kind="amount",
       trigger="每吨|每箱|每件|每斤|每公斤|每平|每间|每人|每柜|每颗|每米|每卷|每瓶|每盒|每包"),
    zh("DISCOUNT", r"(?:打了?|按)(?P<obj>[一二三四五六七八九][一二三四五六七八九]?折|\d(?:\.\d)?折)", 0.85, subject="topic", kind="value",
       trigger="折"),
    # 天成科技的折扣是8.5折，不是8折: a discount said by a copula
    zh("DISCOUNT", r"折扣(?:是|为|改成|改为|调到|调整为|定在|给到)了?(?P<obj>[一二三四五六七八九][一二三四五六七八九]?折|\d(?:\.\d)?折)",
       0.85, subject="topic", kind="value", trigger="折扣"),
    # not an ordinal (第一个大单) nor "a" (加一个专属客服); a count with thousands commas whole (3,500片, not 500)
    zh("QUANTITY", r"(?<![\d,元块钱第])(?<!到了)(?<![少多漏差])(?<![少多漏差][送发寄给了])(?<![少多漏差][送发寄给]了)"
       rf"(?P<obj>{DIGITS}|(?!一[个件份])[一二三四五六七八九十百千万两]+)(?:台|套|个(?![月钟多小星工])|件|份|箱|张|部|块|支|辆|把|袋|吨|瓶|盒|包|桶|双|片)", 0.8,
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
    zh("DEADLINE", rf"(?<!不要在)(?<!别在)(?<!不能在)(?<!不要)(?<!别){ZH_DATE}(?:之前|以前|前)(?:要|必须|需要|得|务必)?(?:全部|全|都)?(?:交付|提交|完成|交货|交|开通|上线|"
       r"拿到|签|发|给|到位|搞定|确认|回复|付款|部署|验收|到货|发货|装完|装好|送到|补齐|寄出|送达|派|安排|带人|出方案|"
       r"结清|付清|定下?来?(?=[，。；！]|$)|处理|整改|上门)(?!不)", 0.85, subject="topic", kind="date", trigger="前"),
    # 这周五前不给方案就退货: a date a threat hangs on
    zh("DEADLINE", rf"{ZH_DATE}(?:之前|以前|前)不给(?:方案|答复|说法|结果)就", 0.75, subject="topic", kind="date",
       trigger="不给"),
    # 上线从9月20号推到10月25号: a launch moved (before the deadlines below, which would take its date)
    zh("LAUNCH_DATE", rf"(?:上线|发布|投产)(?:时间|日期)?[^。；！]{{0,16}}?(?:{MOVED_TO}|改到)了?{ZH_DATE}",
       0.8, subject="topic", kind="date", trigger="上线|发布|投产"),
    # 预计本周六送达, 得延到下周三才能发, POC延期到6月28号: a delivery or a piece of work's new date
    zh("DEADLINE", rf"(?:预计|将于|将在|计划|会在|要在)(?:于|在)?{ZH_DATE}(?:送达|到货|补齐|寄出|发出|交货|交付|发货)(?!不)",
       0.8, subject="topic", kind="date", named_topic=True, supposable=True,
       trigger="送达|到货|补齐|寄出|发出|交货|交付|发货"),
    zh("DEADLINE", rf"(?:货|那批|这批|订单|交付|交货|到货|发货|POC|工期|交期)[^，。；！]{{0,12}}?(?:{MOVED_TO})了?"
       rf"{ZH_DATE}(?:[，。；！]|$|才|再)", 0.75, subject="topic", kind="date", named_topic=True, supposable=True,
       trigger=MOVED_TO),
    zh("DEADLINE", rf"(?:交期|交货期|到货时间|发货时间)(?:是|为|定在|在)?(?=[^，。；]*?[月号日底初])(?!\d+[天周])"
       rf"{ZH_DATE}", 0.85, subject="topic", kind="date",
       trigger="交期|交货期|到货时间|发货时间"),
    # 上线定在4月1日, 上线时间定在9月2号, 上线目标：6月30日
    zh("LAUNCH_DATE", rf"(?:上线|发布|投产|开业)(?:时间|日期|目标|目标日期)?(?:定在|定于|定为|确定在|是|为|[：:])\s?{ZH_DATE}",
       0.85, subject="topic", kind="date", named_topic=True, trigger="上线|发布|投产|开业"),
    zh("LAUNCH_DATE", rf"(?<!不会在)(?<!不会)(?<!没在)(?<!不在)(?<!不)(?<!没)(?:将于|将在|预计|计划|定于|会在|在)?{ZH_DATE}(?:正式)?"
       rf"(?:上线|发布|推出|投产|开业|启动)(?![^，。；！]*(?:取消|作废|不上了))",
       0.85, subject="topic", kind="date", supposable=True, trigger="上线|发布|推出|投产|开业|启动"),
    zh("EXPIRES_ON", rf"{ZH_DATE}(?:到期|截止|结束)", 0.8, subject="topic", kind="date",
       trigger="到期|截止|结束"),
    zh("EXPIRES_ON", rf"(?:到期日|到期时间|有效期)(?:是|为|至|到)?{ZH_DATE}", 0.8, subject="topic", kind="date",
       trigger="到期|有效期"),  # 服务合同到期日是7月31日
    zh("MEETING_AT", rf"(?:会议|开会|见面|会面|碰头|例会|周会|晨会|早会|站会|月会|组会|拜访)(?:时间)?(?:是|定在|安排在|改到|改在|改成|改期到|"
       rf"改期至|推迟到|推到|延期到|延到|顺延到|提前到|挪到|调到|换到|在){ZH_DATE}", 0.8,
       subject="topic", kind="date", trigger="会议|开会|见面|会面|碰头|例会|周会|晨会|早会|站会|月会|组会|拜访"),
    zh("MEETING_AT", rf"{ZH_DATE}(?:[^，。！？；]{{0,16}}?)(?:开会|开(?!了)[^会了，。！？；]{{1,4}}?会(?![员计前后])|见面|碰头|开个会|会面|面谈|开例会|"
       r"过一下|对一下|"
       r"视频会议|电话会议|线上会议|开视频会|(?<!腾讯)(?<!飞书)(?<!钉钉)(?<![Zz]oom)会议(?!室)|约了|拜访(?![了过]|[^，。；]{0,4}?\d+家)|过一遍|(?<!准备)演示(?!环境)|做UAT|面试(?!了?(?:\d+|[一二三四五六七八九十两几]+)个)|(?:线上|电话|当面|视频)沟通)"
       r"(?![前后时]|之[前后]|的时候)",  # 周一早上开会前我会来杯咖啡: a habit timed by a meeting, no meeting
       0.8, subject="topic", kind="date", supposable=True,
       trigger="开会|见面|碰头|开个会|会面|面谈|例会|过一下|对一下|会议|视频会|约了|拜访|过一遍|演示|uat|面试|沟通|会"),
    # 年会定在1月20号, 华南区的渠道大会定在6月14日, 客户答谢会改到9月20日: an event's own day (a later move
    # supersedes it), not the writer's meeting
    zh("MEETING_AT", rf"(?:{_WHEN})?的?(?P<subj>(?:(?![的是在和与])[\u4e00-\u9fffA-Za-z0-9.]){{0,8}}?(?:年会|团建|培训|发布会|复盘会|评审会|"
       rf"答谢会|大会|全员会|启动会|签约仪式|展会|峰会|沙龙|研讨会|宣讲会|誓师会|颁奖典礼|周年庆|运动会))"
       rf"(?:时间|日期)?(?:定在|定于|改到|改在|改期到|推迟到|推到|延期到|提前到|安排在|挪到|调到)了?{ZH_DATE}", 0.8,
       subject="group", subject_type="event", kind="date", supposable=True,
       trigger="年会|团建|培训|发布会|复盘会|评审会|答谢会|大会|全员会|启动会|签约仪式|展会|峰会|沙龙|研讨会|宣讲会|誓师会|"
               "颁奖典礼|周年庆|运动会"),
    zh("MEETING_AT", rf"{ZH_DATE}(?:[^，。！？；]{{0,10}}?)做(?P<subj>[\u4e00-\u9fff]{{2,6}}?(?:复盘|评审|培训|汇报|"
       r"述职|总结会|周会|月会))", 0.8, subject="group", subject_type="event", kind="date",
       trigger="复盘|评审|培训|汇报|述职|总结会|周会|月会"),
    zh("ORDERED", rf"订单[^。]{{0,30}}?(?:{DIGITS}|[一二三四五六七八九十百千两]+)(?:台|套|个|件|份|箱)(?P<obj>[A-Za-z0-9\u4e00-\u9fff]{{2,10}}?)(?=[，。：；、]|$)",
       0.85, subject="topic", require_mention=True, object_type="product", trigger="订单"),
    # An order line, "订单JH-0108：血糖仪G5一共500台": the customer the sentence names ordered the product
    zh("ORDERED", rf"(?:订单|补单|单号|[A-Z]{{2,6}}-\d{{3,}})[^。！？]{{0,12}}?[：:]\s*(?!再|又|还|也|另|先|一共|共)(?P<obj>[A-Za-z\u4e00-\u9fff]"
       rf"[A-Za-z0-9\u4e00-\u9fff ]{{1,14}}?)(?:一共|共|要|订|各)?{COUNT}", 0.8, subject="topic", kind="entity",
       object_type="product", trigger="：|:"),
    zh("ORDERED", r"(?:下单(?![价时日数量额])了?|下了一单|追加了一单|订了|订购了?|采购了)"
       r"(?:[^，。！？；]{0,3}?"
       rf"(?:{DIGITS}|[一二三四五六七八九十百千两]+)(?:台|套|个|件|份|箱|张|把|袋|吨|瓶|盒|包|桶|双))?"
       r"(?P<obj>[A-Za-z0-9\u4e00-\u9fff]{2,10}?)(?=[，。：；、]|$|账号|许可|授权|"
       r"(?:下周|本周|这周|月底|明天|今天|后天|下个?月|周[一二三四五六日])?(?:安装|发货|到货|交货|送到|上门))",
       0.8, kind="entity", object_type="product", trigger="下单|一单|订了|订购|采购了"),  # not 空调下周安装
    zh("ORDERED", rf"追加了一单[:：](?:{DIGITS}|[一二三四五六七八九十百千两]+)(?:台|套|个|件|份|箱|张)(?P<obj>[A-Za-z0-9\u4e00-\u9fff]{{2,10}}?)(?=[，。；、]|$)",
       0.8, require_mention=True, object_type="product", trigger="追加"),
    zh("CANCELLED", rf"(?:取消了?|撤销了?|作废了?)(?P<obj>{ORDER_ID})(?=这单|那单|[，。！？；（(]|$)", 0.85,
       kind="value", trigger="取消|撤销|作废", negatable=False, supposable=True),  # 启明教育取消了QM-0722这单（80套…）
    zh("CANCELLED", rf"(?:取消了?|撤销了?|作废了?|终止了?)(?!过|未|没|不|失败)(?:上个月的|之前的|那笔|这笔|那个|这个)?(?:订单|合同|合作)?"
       rf"{ZH_OBJ_LONG}",  # not 取消过自动续费 (said once), 取消未成功 (failed)
       0.85, kind="value", supposable=True,
       trigger="取消|撤销|作废|终止", negatable=False),
    zh("CANCELLED", rf"(?<!差点)(?<!险些)(?<!要不要)(?<!别)把(?P<obj>{ORDER_ID}|[\u4e00-\u9fff]{{0,8}}?(?:订单|单子|合同))"
       r"(?:这单|那单)?(?:给)?(?:撤了|撤掉了|砍掉了|砍了)(?![？?吗])", 0.8, kind="value", trigger="撤|砍", supposable=True),
    # 光明乳业把DJ-0612撤了 (an order or an id: 把消息撤回了 cancels nothing)
    zh("CANCELLED", rf"(?P<obj>{ORDER_ID})(?:这单|订单|合同)?(?:直接|已经|已|也)?(?:作废|取消|撤销)了?", 0.8,
       kind="value", trigger="作废|取消|撤销", negatable=False),  # 合同KD-2406直接作废
    zh("STATUS", r"(?<!建议)(?<!考虑)(?<!打算)(?<!是否)(?<!要不要)(?:决定|已经|宣布|临时)?(?P<obj>暂停(?:采购|合作|项目|发货|付款)?|停止(?:采购|合作|发货)|终止合作|延期|"
       r"搁置|上线了|完成了(?![\d一二三四五六七八九十百千万两])|验收通过|通过验收|验收了|签约了|结项了|流产了)", 0.75,
       subject="topic", kind="value",  # not 一季度完成了680万: a figure reached
       trigger="暂停|停止|终止|延期|搁置|上线了|完成了|验收|签约了|结项了|流产了"),
    # 恒通支付确认流失, 这单确认丢单: a deal lost, said of the customer named
    zh("STATUS", r"(?:确认|已经|最终)(?P<obj>流失|丢单)", 0.75, subject="topic", named_topic=True, kind="value", supposable=True,
       trigger="流失|丢单"),
    zh("STATUS", r"休(?P<obj>产假|病假|年假|婚假|陪产假|育儿假)", 0.8, kind="value", trigger="假"),
    zh("STATUS", r"(?P<obj>转正|升职)了", 0.8, kind="value", named_subject=True, trigger="转正|升职"),  # 小宋转正了
    # 我老婆怀孕了, 我妈住院了: a state of health said as news
    zh("STATUS", r"(?<!没)(?<!不)(?<!想)(?<!要)(?P<obj>怀孕|怀上|住院|出院|骨折)了", 0.8, kind="value", supposable=True,
       introduces=True, trigger="怀孕|怀上|住院|出院|骨折"),  # dated by its own words, not 预产期明年3月 after it
    # 我妈最近查出高血压, 我妈有糖尿病: a chronic condition found or had (not 家族有高血压史)
    zh("STATUS", rf"(?<!没)(?<!不)(?:查出来?了?|确诊了?|得了|患有|患了|有)(?P<obj>{_ZH_ILLNESS})(?!史)", 0.8, kind="value",
       supposable=True, trigger=_ZH_ILLNESS),

    zh("STATUS", r"(?<!不)(?<!没)(?<!想)(?<!快)(?<!快要)(?<!要)(?<!马上)(?<!即将)(?<!准备)(?P<obj>退休)(?![金工费年龄])", 0.8, kind="value", trigger="退休", supposable=True),
    zh("STATUS", rf"状态(?:是|为|变成了?|改成了?|更新为){ZH_OBJ}", 0.8, subject="topic", kind="value", trigger="状态"),
    zh("HAS_ISSUE", rf"(?:经常|总是|老是|又|一直|偶尔|频繁)?(?P<obj>{ISSUES})", 0.75, subject="topic", kind="value",
       trigger=ISSUES),
    zh("USES", rf"(?:反映|反馈|投诉|说)(?P<obj>[A-Za-z0-9\u4e00-\u9fff]{{2,10}}?)(?:经常|总是|老是|又|一直|偶尔|频繁)?"
       rf"(?:{ISSUES})", 0.75, require_mention=True, object_type="product",
       trigger="反映|反馈|投诉|说"),
    # 我们跟供应商永盛五金…, 咱们的常年法律顾问天诚律所, 统一在京东企业购下单, 我们跟中谱仪器下的PO: whose customer we are
    zh("CUSTOMER_OF", rf"(?<![前原旧老])(?<!潜在)(?<!备选)(?:供应商|供货商|服务商|代理商|承运商|物流商|外包给?的?|法律顾问){ORG}"
       r"(?=的|[，。；、,]|$|签|下的|下了|订|采购|买|续|合作|要|说|通知)(?![^。]*(?:解除|终止|不再|停止|取消|没签|倒闭))", 0.75,
       subject="speaker", kind="entity", object_type="organisation", require_mention=True, introduces=True,
       trigger="供应商|供货商|服务商|代理商|承运商|物流商|外包|法律顾问"),
    zh("CUSTOMER_OF", r"(?<!帮)(?:跟|向|从)(?P<obj>[^的，。；！？\s]{2,12}?)(?=下的|下了|订的|订了|采购了|采购的|买的|买了|进的货)"
       r"(?![^。]*(?:还没|没有|取消|未|没定))",
       0.75, subject="speaker", kind="entity", object_type="organisation", require_mention=True,
       trigger="下的|下了|订的|订了|采购了|采购的|买的|买了|进的货"),
    zh("CUSTOMER_OF", rf"(?<!可能)(?<!准备)(?<!打算)(?<!想)(?<!下周我们)(?<!帮)(?:统一|都|改|以后)?在{ORG}(?:下单|采购|订货|买)", 0.75, subject="speaker",
       kind="entity", object_type="organisation", require_mention=True, trigger="下单|采购|订货|买"),
    zh("CONTACT", rf"(?:对接人|联系人|负责人|决策人)(?:从[^，。]{{1,10}}?)?(?:换成了?|变成了?|改成了?|改为|换为|变为|调整为|还是|是|为)"
       rf"{CONTACT_NAME}", 0.85,
       subject="topic", kind="entity", object_type="person", trigger="对接人|联系人|负责人|决策人"),
    # 对接人不是刘经理了，换成新来的采购总监Emily Zhou; 他们业务员换成了小蒋; 对接的还是陈会计
    zh("CONTACT", rf"(?:对接人|联系人)[^。；]{{0,12}}?[，,](?:现在)?(?:换成了?|变成了?|改成了?){CONTACT_NAME}", 0.85,
       subject="topic", kind="entity", object_type="person", require_mention=True, trigger="对接人|联系人"),
    zh("CONTACT", rf"(?:业务员|客户经理|销售代表)(?:换成了?|变成了?|改成了?){CONTACT_NAME}", 0.8, subject="topic",
       kind="entity", object_type="person", require_mention=True, trigger="业务员|客户经理|销售代表"),
    zh("CONTACT", rf"(?<!原来)(?<!之前)(?<!以前)(?<!这边)(?<!我们)(?<!我方)(?<!我)对接的(?:还是|是|换成了?|变成了?)?{CONTACT_NAME}", 0.8,
       subject="topic", kind="entity", object_type="person", require_mention=True, trigger="对接的"),
    zh("CONTACT", rf"(?:联系人|对接人|决策人)[:：]\s?{CONTACT_NAME}", 0.8, subject="topic", kind="entity",
       object_type="person", require_mention=True, trigger="联系人|对接人|决策人"),  # 客户：X｜联系人：副校长 冼志明
    # 蓝鲸那边以后找他们采购主管祝晓燕, 对账以后找他们新来的会计滕飞: whom to go to at the organisation
    zh("CONTACT", rf"(?:以后|今后|之后|往后|后续|日常对接|对接)[^，。；！]{{0,10}}?(?:直接|都|就)?找(?=他们|对方){CONTACT_NAME}", 0.8,
       subject="topic", kind="entity", object_type="person", require_mention=True, trigger="找"),
    # 现在由行政部的邵斌跟我们对接: the organisation's contact, of a department
    zh("CONTACT", rf"(?<!客户)由(?:[\u4e00-\u9fff]{{2,5}}部的)?{CONTACT_NAME}(?:来)?(?:跟|和|与)?(?:我们|我方)?(?:对接|联系)", 0.8,
       subject="topic", kind="entity", object_type="person", require_mention=True, trigger="对接|联系"),  # not 两个客户由宋佳怡对接 (ours)
    # a signature line: 云峰数据 客户经理 覃小川, 清源餐饮集团 行政部 包丽华, 启信科技｜客服主管｜卫兰
    zh("WORKS_AT", rf"^(?!(?:家长|学生|同学|客户|业主|患者|用户|会员|粉丝|\S{{0,6}}?(?:周报|日报|月报|纪要|总结|汇报|复盘|小结|简报))"
       rf"{_BAR})"  # 家长 尹红, 周报 马超: who signs or writes, not where
       rf"(?P<obj>[\u4e00-\u9fffA-Za-z]{{2,12}}?){_BAR}(?:[\u4e00-\u9fff]{{1,6}}?[部组处科]{_BAR})?(?:{ZH_ROLE}{_BAR})?"
       rf"{PERSON}\s*$", 0.8, subject="group", subject_type="person", named_subject=True, kind="entity",
       object_type="organisation", trigger=" |｜"),
    zh("HAS_ROLE", rf"^[\u4e00-\u9fffA-Za-z]{{2,12}}?{_BAR}(?:[\u4e00-\u9fff]{{1,6}}?[部组处科]{_BAR})?(?P<obj>{ZH_ROLE}){_BAR}"
       rf"{PERSON}\s*$", 0.8, subject="group", subject_type="person", named_subject=True, kind="entity",
       object_type="role", trigger=" |｜"),
    zh("MEMBER_OF", rf"^[\u4e00-\u9fffA-Za-z]{{2,12}}?{_BAR}(?P<obj>[\u4e00-\u9fff]{{1,6}}?[部组处科]){_BAR}(?:{ZH_ROLE}{_BAR})?"
       rf"{PERSON}\s*$", 0.8, subject="group", subject_type="person", named_subject=True, kind="entity",
       object_type="organisation", trigger=" |｜"),
    # 我叫卢凯，安顺快运的运营总监: a speaker introducing themselves
    zh("WORKS_AT", rf"我(?:叫|是)[\u4e00-\u9fff]{{2,3}}[，,](?P<obj>[\u4e00-\u9fffA-Za-z]{{2,10}}?)的(?:{ZH_ROLE})", 0.85,
       subject="speaker", require_mention=True, object_type="organisation", trigger="我叫|我是"),
    zh("HAS_ROLE", rf"我(?:叫|是)[\u4e00-\u9fff]{{2,3}}[，,][\u4e00-\u9fffA-Za-z]{{2,10}}?的(?P<obj>{ZH_ROLE})", 0.85,
       subject="speaker", kind="entity", object_type="role", trigger="我叫|我是"),
    zh("HAS_ROLE", rf"(?:^|(?<=[，。：；！起]))(?P<obj>{TEAM_ROLE})(?:一职)?由我(?:来)?(?:接任|接替|担任)", 0.85, subject="speaker", kind="entity",
       object_type="role", trigger="由我"),
    # a CRM record's fields: 客户：同舟医药连锁｜决策人：运营副总裁霍建平｜现用：金蝶云星空
    zh("HAS_ROLE", rf"(?:决策人|负责人|联系人|对接人)[:：](?P<obj>{ZH_ROLE})\s?{PERSON}(?=[｜|，。；\s]|$)", 0.8,
       subject="group", subject_type="person", kind="entity", object_type="role", trigger="人"),
    # 联系人赵文斌，生产副总: a contact, then their title as a clause of its own
    zh("HAS_ROLE", rf"(?:决策人|负责人|联系人|对接人)(?:是|[:：])?{PERSON}[，,](?P<obj>{ZH_ROLE})(?=[，。；！]|$)", 0.8,
       subject="group", subject_type="person", named_subject=True, kind="entity", object_type="role", introduces=True, trigger="人"),
    zh("WORKS_AT", rf"(?:决策人|负责人|联系人|对接人)[:：](?:{ZH_ROLE}\s?)?{PERSON}(?P<obj>)(?=[｜|，。；\s]|$)", 0.75,
       subject="group", subject_type="person", kind="entity", object_type="organisation", antecedent=True,
       trigger="人"),
    zh("USES", r"(?:现用|在用|目前使用|现有系统)[:：](?P<obj>[^｜|，。；\s]{2,15})", 0.8, subject="topic", kind="value",
       trigger="现用|在用|目前使用|现有系统"),
    # 采购总监换成了方卓, 对方IT负责人换成了钱伟: who holds the role now (of the organisation talked about)
    zh("HAS_ROLE", rf"(?P<obj>{ZH_ROLE})(?:换成了?|改为|换为|变成了?|由)(?:一个|一位)?(?:叫|是)?{PERSON}(?=[，。；！\s]|$|了|的|接任|担任|来)", 0.8,
       subject="group", subject_type="person", named_subject=True, kind="entity", object_type="role",
       trigger="换成|改为|换为|变成|由"),
    # 知屿教育 校长 曹芸 对…感兴趣, 合伙人 上官婷: a note's role and name apart (after the signature lines,
    # which read the same words as a whole)
    zh("HAS_ROLE", rf"(?:^|(?<=[，。：；！\s]))(?P<obj>{ZH_ROLE})\s{PERSON}(?=\s|[，。；！]|$)", 0.75, subject="group",
       subject_type="person", named_subject=True, kind="entity", object_type="role", introduces=True, trigger=" "),
    # 他们IT部的吕经理, 他们CMO林峰: someone of the organisation the message is about (not 他们的负责人 沈磊
    # 好像已经走了)
    zh("WORKS_AT", rf"(?:他们|对方)(?:公司|那边)?的?(?:[A-Za-z]{{1,4}}[部科处组]?|[\u4e00-\u9fff]{{1,4}}?[部科处组])?的?{CONTACT_NAME}"
       r"(?![^，。；！？]{0,8}?(?:走了|离职|辞职|不在|退休))",
       0.75, subject="topic", inverse=True, kind="entity", object_type="person", require_mention=True, strict=True,
       introduces=True, trigger="他们|对方"),
    zh("EMAIL", r"(?:邮箱|邮件地址|email|Email|E-mail)[^，。@\w]{0,2}(?:是|：|:|发到|换成了?|改成了?|变成了?)?\s?"
       rf"(?P<obj>{EMAIL_ADDRESS})", kind="email",
       trigger="邮箱|邮件|email|e-mail"),
    # 联系我司物流专员董芳，电话021-58827731: the number of the person just named
    zh("PHONE", rf"{PERSON}[，,]?(?:的)?(?:手机号?码?|电话号?码?|座机|微信号?)(?:是|：|:)?\s?"
       r"(?!400|800|95\d)(?P<obj>\+?\d[\d\s-]{6,16}\d)", 0.85, subject="group", subject_type="person",
       named_subject=True, kind="phone", trigger="手机|电话|座机|微信"),
    zh("PHONE", r"(?<!客服)(?<!热线)(?<!服务)(?:手机号?码?|电话号?码?|座机|号码|新号|联系方式|微信号?)(?:是|：|:|换成了?|改成了?)?\s?"
       r"(?!400|800|95\d)(?P<obj>\+?\d[\d\s-]{6,16}\d)", 0.85, kind="phone",
       trigger="手机|电话|座机|号码|新号|联系方式|微信"),
)  # fmt: skip
