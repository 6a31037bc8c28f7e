"""Find entity mentions in a Chinese sentence, from jieba's words and part-of-speech tags.

jieba (https://github.com/fxsjy/jieba#4-词性标注) tags people (nr), places (ns), organisations
(nt) and other proper nouns (nz) but misses most company and project names; these are read
from the words around a head word:

- projects: nouns before 项目, and a verb between nouns and 项目 (深圳/仓储/项目 → 深圳仓储项目,
  CRM/升级/项目, 官网/改版/项目);
- organisations: a name before an industry word (华东/物流, 星河/科技, 明德/教育), a place
  before 总部/分公司/办事处 (北京总部), departments (市场部, 产品部);
- products: a model code before a product noun (X3扫描仪), an edition (企业版), a name before
  云盘/网盘/云 (星河云盘, 坚果云);
- documents: a kind of contract (服务合同, 采购合同).
"""

from __future__ import annotations

import re

from engram.graph.places import is_chinese_place, is_world_place_zh
from engram.ingest.frames import ZH_ROLE
from engram.ingest.lexicon import DEFAULT_GAZETTEER, SURNAMES
from engram.ingest.unknown_names_zh import (
    account_header,
    brand_start,
    cut_name,
    deal_owner,
    home_place,
    named_person,
)
from engram.nlp.names import CHINESE_COMPOUND_SURNAMES
from engram.nlp.tokenize import has_cjk, jieba_module, tag_words


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


Found = tuple[int, int, str, str]
"""(start, end, name, entity type)."""


def word_at(sentence: str, position: int) -> tuple[str, str] | None:
    """Return the (word, part-of-speech flag) jieba reads beginning at ``position`` of ``sentence``,
    or None when no word begins there."""
    start = 0
    for word, flag in tag_words(sentence):
        if start >= position:
            return (word, flag) if start == position else None
        start += len(word)
    return None


def starts_a_word(sentence: str, position: int) -> bool:
    """Return whether jieba begins a word at ``position`` of ``sentence`` (临时工, 平时工作: 时 does not)."""
    return word_at(sentence, position) is not None


ORG_SUFFIX = _words(
    "物流 汽车 教育 医疗 科技 集团 公司 银行 软件 网络 电子 传媒 地产 能源 制药 食品 物业 咨询 证券 保险 "
    "通信 智能 "
    "实业 贸易 控股 股份 电器 家居 餐饮 文化 体育 出版社 医院 工作室 律所 事务所 基金 航空 生物 环保 建设 "
    "装饰 "
    "服饰 药业 置业 传媒 影业 互娱 游戏 资本 投资 "
    "建材 农业 五金 机械 电气 纺织 快运 快递 化工 钢铁 医药 器械 安防 家电 汽配 船舶 重工 矿业 酒店 "
    "新能源 律师事务所 数科 冷链 水务 光伏 乳业 电力 科创 数码 云 信息 技术 超市 商场 百货 药房 便利店 "
    "铝业 纸业 铜业 印务 印刷 包装 新材 旅行 商业 物资 设计院 研究院 光电 仪器 涂料 幼教 连锁 半导体 精密 "
    "实验室 烘焙 农场 "
    "母婴 国旅 旅行社 酒业 测绘 装备 制造 牧业 航运 速运 供应链 粮油 文旅 影视 商贸 卫浴 信托 机器人 "
    "中学 小学 学校 幼儿园 诊所"
)
_ORG_MIDDLE = _words(
    "会计 律师 设计 建筑 工程 医疗 信息 科技 技术 咨询 商务 洗衣 母婴 家政 健身 美容 口腔 宠物"
)
"""A word between a name and its suffix: 诚信 会计 事务所 is 诚信会计事务所, not 会计事务所."""
_JOINED = ("入职", "就职", "任职", "供职")
"""Verbs jieba may cut through (入 职乐途 科技): their second character begins no name."""
_JOINING = "和与及跟了"
"""A conjunction or 了 that jieba joins to the brand after it (宏远电气和锐达 机械, 拜访了鼎睿 科技)."""
_BRANCH = _words("总部 分公司 办事处 分部 子公司 分行 支行 门店 分店")
_PRODUCT_SUFFIX = _words("云盘 网盘 云 App APP 助手 商城 小程序")
_NOUNISH = _words("n ns nz nt nr nrt nrfg j eng vn l an b nl ng x z")
_NOT_PREFIX = _words(
    "这个 那个 这些 那些 我们 你们 他们 公司 项目 我 你 他 她 的 了 和 跟 与 在 是 有 新 老 大 小 该 本 某 "
    "这 那 我司 贵司 本司 我方 贵方 咱们 "
    "每个 整个 一个 全部 所有 我的 这次 上次 下次 今年 明年 去年 负责 加入 离开 注册 成立 管理 创办 收购 "
    "投资 入职 确认 启动 推进 讨论 评估 参与 完成 提交 汇报 中标 拿下 审批 验收 交付 暂停 重启 "
    "就职 任职 进入 选择 联系 服务 合作 拜访 参观 考察 代表 通知 告诉 跳槽 调到 发给 交给 给 去 到 从 找 问 "
    "帮 说 讲 称 表示 觉得 认为 提到 "
    "一家 某家 那家 这家 各 多家 两家 整个 原来 以前 现在 目前"
)
_DIRECTIONS = _words("东方 南方 西方 北方 中央")
"""Place words jieba tags s that begin firms' names (东方酒店集团, 南方电网)."""
_PHASE = re.compile(r"[一二三四五六七八九]期")
_WEAK_PREFIX = _words("新 老 大 小 该 本 某 原")
_NOT_A_SURNAME = "时们的了一二三四五六七八九十大幺"
"""After 小/老/阿, no surname: 小时, 老二 (a second child), 老大."""
_DEPARTMENT = re.compile(
    r"(?:市场营销|人力资源|市场|产品|运营|销售|技术|财务|人事|行政|研发|客服|采购|法务|设计|信息|IT|品牌|"
    r"公关|测试|"
    r"质量|物流|供应链|商务|战略|投资|审计|风控|数据|工程|售后|生产|护理|设备|后勤|总务|物资|资产|基建|安全|"
    r"企划|渠道|大客户|客户|综合|培训)部(?!长|门经理|经理|分)"
    r"|(?:设备|信息|财务|医务|护理|总务|保卫|后勤|教务|采购)科(?!长|技|学)"
    r"|(?<![\u4e00-\u9fff])(?:设计|开发|测试|产品|运营|销售|数据|前端|后端|算法|财务|行政|市场|客服|售后|研发|技术|采购|"
    r"法务|人事|品牌|内容|交付|实施|运维|电销)组(?!长|织|合|成|建|件|装)"
)
PRODUCT_NOUN = (
    r"(?:扫描仪|打印机|手机|电脑|笔记本|平板|耳机|相机|服务器|路由器|显示器|投影仪|音箱|手表|芯片|系统|机器人|无人机|"
    r"终端|传感器|摄像头|染色机|洗碗机|机床|设备|门锁|分拣柜|快递柜|空调|冰箱|充电桩|电池|仪表|控制器|一体机|收银机|"
    r"监护仪|检测仪|分析仪|烘干机|洗衣机|净水器|净化器|热水器|呼吸机|网关|交换机|工作站|叉车|扫码枪|标签机|读卡器|"
    r"闸机|灯具|电表|水表|变频器|压缩机|冷柜|展示柜|点餐机|称重秤|电子秤|平台)"
)
"""What a product is called in Chinese, its model or brand aside (扫描仪, 门锁, 收银机, 系统)."""
_MODIFIER = (
    r"(?:智能|工业|商用|家用|便携|手持|无线|蓝牙|扫地|自助|电子|车载|医用|全自动|自动|高清|定位|收银|扫码|安防|网络|监控|"
    r"冷链|工控|微型|迷你|大屏|触摸|激光|喷墨|彩色)?"
)
_EDITION = re.compile(r"(?:企业|专业|旗舰|标准|基础|个人|团队|高级|免费|教育|家庭)版")
_BRAND_BEFORE = re.compile(r"(?<![A-Za-z0-9])[A-Za-z][A-Za-z0-9.+-]*(?: \d+)?$|[\u4e00-\u9fff]{2,4}$")
"""The product an edition is of, said right before it: Figma团队版, 钉钉专业版, Office 365企业版."""
PRODUCT = re.compile(
    # X3扫描仪, K8智能门锁; 智能分拣柜S8, 收银系统V3.2; 旗云POS (a two-character brand: not 反馈旗云POS)
    rf"(?<![A-Za-z0-9])[A-Za-z][A-Za-z0-9-]*\d[A-Za-z0-9-]*{_MODIFIER}{PRODUCT_NOUN}"
    rf"|{_MODIFIER}{PRODUCT_NOUN}[A-Za-z]+-?\d[A-Za-z0-9-]*(?:\.\d+)?(?![A-Za-z0-9])"
    r"|(?:(?![的了是在和与把被从到个台批套这那我你他她们新旧做去用换买上成])[\u4e00-\u9fff]){2}"
    r"(?:POS|ERP|CRM|WMS|MES|OA|BI)(?![A-Za-z]|[\u4e00-\u9fff]{0,4}项目)"
    rf"|{_EDITION.pattern}"
)
_DOCUMENT = re.compile(r"(?:服务|采购|销售|租赁|劳动|框架|保密|合作|代理|供货|维保|续约)?合同(?!额|金额|价)")
_LAW_FIRM = re.compile(r"(?:(?<=^)|(?<=[^\u4e00-\u9fff]))[\u4e00-\u9fff]{2,4}?(?:律师事务所|律所)")
"""恒远律所: a firm whose suffix jieba cuts apart (律/nr 所/u), said first in its clause."""
ZH_REGION_AND_TRADE = r"[（(][\u4e00-\u9fff]{2,4}[)）][\u4e00-\u9fff]{0,6}?"
"""What a registered name says between its brand and its legal form: its region and trade, （上海）信息技术
of 极光云阁（上海）信息技术有限公司."""
_REGISTERED_TAIL = rf"{ZH_REGION_AND_TRADE}(?:股份)?有限(?:责任)?公司"
_REGISTERED = re.compile(
    r"(?:(?<=^)|(?<=[^\u4e00-\u9fff])|(?<=[是在与和跟给从为对向访])|(?<=加入|来自|入职|代表))"
    rf"(?!拜访|联系|我们|感谢|来自|加入|入职|代表|关于|致|[了的过着])[\u4e00-\u9fff]{{2,6}}?{_REGISTERED_TAIL}"
)
"""A company's registered name, its region in brackets (极光云阁（上海）信息技术有限公司): one name, however
jieba cuts the unknown words before the region."""
_QUOTED_FIRM = re.compile(rf"(?<=[“「『])[\u4e00-\u9fff]{{1,6}}(?:{'|'.join(ORG_SUFFIX)})(?=[”」』])")
"""第一家是“芊禾乳业”: a name in quotes with an industry word, whatever jieba makes of it (芊/x 禾/ng)."""
_CUSTOMER_FIELD = re.compile(
    r"(?:(?<=^客户[:：])|(?<=[｜|】\s]客户[:：]))[\u4e00-\u9fffA-Za-z]{2,12}(?=[｜|\s]|$)"
)
"""【CRM转发】客户：同舟医药连锁｜…: the customer field of a CRM record, between its separators, names an
organisation (not 两个客户：美的集团归小何，…, a sentence)."""
_VISITED_FIRM = re.compile(
    rf"(?:(?<=拜访了)|(?<=拜访)|(?<=见了)|(?<=约了)|(?<=联系了))(?!了|我们|他们|你们|客户|对方|贵司)[\u4e00-\u9fff]{{2,6}}?(?<!新)"
    rf"(?<!总)(?<!经理)(?<!老师)(?<!主任)(?<!校长)(?<!院长)(?<![姐哥])"  # 见了王总的助理: a person's, no firm
    rf"(?=的(?:[\u4e00-\u9fff]{{0,3}}(?:{ZH_ROLE}))|(?:采购|财务|技术|信息|人力资源|人事|行政|市场|销售|IT|研发|运营|质量|法务|"
    rf"工程|生产)(?:部|中心))"
)
"""The firm whose role holder or department one visits or meets (拜访了恒拓精密的采购经理刘建华,
拜访鼎宏科技采购部张总): an organisation, whatever jieba makes of its name (恒/nr 拓/nr 精密/a)."""
_BUREAU = re.compile(
    r"(?:电力|税务|公安|教育|财政|统计|环保|交通|气象|邮政|铁路|商务|民政|人社|住建|规划|水利|林业|农业|市场监管|国土|文旅|卫健)"
    r"(?:局|厅)"
)
"""A government bureau one works at (电力局, 税务局); 结局 and 格局 are none."""
_CONTRACT_OWNER = re.compile(
    r"(?P<owner>[\u4e00-\u9fffA-Za-z0-9]{2,10})的(?P<what>[\u4e00-\u9fffA-Za-z0-9]{0,4})$"
)
"""Whose a contract is, said before it: 华信证券的运维|服务合同 (the owner kept as its own mention)."""
_BEFORE_AN_OWNER = re.compile(r"^(?:跟|和|与|在|给|找|向|对|把|从)")
_NICKNAME = re.compile(
    r"(?<![\u4e00-\u9fff])?[小老阿](?:陈|王|李|张|刘|杨|黄|赵|吴|周|徐|孙|马|朱|胡|郭|何|高|林|罗|郑|梁|谢|"
    r"宋|唐|许|韩|"
    r"冯|邓|曹|彭|曾|肖|田|董|袁|潘|于|蒋|蔡|余|杜|叶|程|苏|魏|吕|丁|任|沈|姚|卢|姜|崔|钟|谭|陆|汪|范|金|廖|"
    r"贾|夏|"
    r"韦|方|邹|孟|熊|秦|邱|江|尹|薛|段|雷|侯|龙|史|陶|黎|贺|顾|毛|郝|龚|邵|钱|严|武|戴|莫|孔)"
    r"(?!(?:师|板|家|婆|公|爸|妈|人|友|天|年|区|伙|虎|鼠|鹰|乡|总|工|百姓|头|序)"
    r"|[\u4e00-\u9fff](?:师|板|家|婆|公|爸|妈|人|友|伙|虎|鼠|鹰|乡|百姓|头))"
)
"""小陈, 老王, 阿李: a person called by surname (not 老师, 老板, 老家, 小黄鸭, 小程序…); a time word after
the name does not hide it (小李今天…)."""
_REGION = re.compile(r"^[华东南西北中]{2}区$")
_NOT_NAMES = _words(
    "谢谢 高兴 文明 明白 时间 平安 安心 常常 万一 成功 华为 向往 方便 和平 于是 经常 师傅 "
    "小姐 小孩 小伙 小哥 老师 老板 老公 老婆 老家 阿姨 段时间 周转 祝福 "
    "柯基 金毛 泰迪 柴犬 布偶 边牧 比熊 博美"
)


def structural_mentions(sentence: str) -> list[Found]:
    """Return departments, products, documents, and the projects, organisations and products
    read from jieba's words, in the order found (longest first where two overlap)."""
    found: list[Found] = []
    words = tag_words(sentence)
    offsets: list[int] = []
    position = 0
    for word, _ in words:
        offsets.append(position)
        position += len(word)
    for index, (word, _flag) in enumerate(words):
        start = offsets[index]
        if word == "项目":
            first = index
            while (
                first > 0
                and index - first < 5
                and (
                    _prefix_word(*words[first - 1], verbs=False)
                    or words[first - 1][0] in _WEAK_PREFIX
                    or _inner_verb(words, first - 1)
                    or _inner_character(words, first - 1)
                )
            ):
                first -= 1
            if _two_characters(words, first):  # 安/v 和/c 酒店客房网络项目: a name jieba cut apart
                first -= 2
            while first < index and words[first][0] in _WEAK_PREFIX:
                first += 1  # 新项目 is no name; 新零售项目 is
            if first < index and words[first - 1][0] in _WEAK_PREFIX and words[first][1] != "ns":
                first -= 1
            if first < index:
                end = start + 2 + (2 if _PHASE.match(sentence, start + 2) else 0)  # 智慧停车项目二期
                found.append((offsets[first], end, sentence[offsets[first] : end], "project"))
        elif len(word) >= 4 and has_cjk(word) and word[-2:] in ORG_SUFFIX and word[:2] not in _NOT_PREFIX:
            lead = start  # one jieba word: 平安保险; after a name, an industry: 凯德/nrt 医疗器械
            if index > 0 and words[index - 1][1] in ("nr", "nrt", "nz") and len(words[index - 1][0]) >= 2:
                lead = offsets[index - 1]
            found.append((lead, start + len(word), sentence[lead : start + len(word)], "organisation"))
        elif word in ORG_SUFFIX and _two_characters(words, index):  # 鼎/ng 信/n 物流: a name jieba cut apart
            found.append(
                (
                    offsets[index - 2],
                    start + len(word),
                    sentence[offsets[index - 2] : start + len(word)],
                    "organisation",
                )
            )
        elif word in ORG_SUFFIX or word in _BRANCH or word in _PRODUCT_SUFFIX:
            if index == 0 or not _prefix_word(*words[index - 1]) or len(words[index - 1][0]) < 2:
                continue
            # 巡检机器人 is made to do something (a product); 优必选机器人 is a maker
            made_to_do = word == "机器人" and words[index - 1][1] in ("v", "vn")
            kind = "product" if word in _PRODUCT_SUFFIX or made_to_do else "organisation"
            lead = offsets[index - 1]
            if word in _BRANCH and words[index - 1][1] != "ns":
                continue
            if (
                words[index - 1][0] in _ORG_MIDDLE
                and index > 1
                and len(words[index - 2][0]) > 1
                and _prefix_word(*words[index - 2], verbs=False)
            ):
                lead = offsets[index - 2]
            if sentence[lead - 1 : lead + 1] in _JOINED or (
                sentence[lead] in _JOINING and start - lead >= 3
            ):  # 入|职乐途 科技, 宏远电气和锐达 机械, 拜访了鼎睿 科技: that character is no name's
                lead += 1
            found.append((lead, start + len(word), sentence[lead : start + len(word)], kind))
    for regex, kind in ((_DEPARTMENT, "organisation"), (PRODUCT, "product"), (_DOCUMENT, "document"),
                        (_NICKNAME, "person"), (_LAW_FIRM, "organisation"), (_CUSTOMER_FIELD, "organisation"),
                        (_BUREAU, "organisation"), (_REGISTERED, "organisation"),
                        (_QUOTED_FIRM, "organisation"), (_VISITED_FIRM, "organisation")):  # fmt: skip
        found += [(m.start(), m.end(), m.group(), kind) for m in regex.finditer(sentence)]
    for named in (
        *named_person(sentence),
        *cut_name(words, offsets),
        *home_place(sentence),
        *deal_owner(sentence),
    ):  # names jieba does not know
        if not any(s < named[1] and named[0] < e for s, e, *_ in found):
            found.append(named)
    header = account_header(sentence, words)
    if header is not None and not any(start < header[1] for start, *_ in found):
        found.append(header)  # 翰墨文创 签了！: the account a note opens with
    found = [_with_brand(mention, words, offsets, sentence) for mention in found]
    return [_with_owner(mention, found, sentence) for mention in found]


def _with_brand(
    mention: Found, words: tuple[tuple[str, str], ...], offsets: list[int], sentence: str
) -> Found:
    """Return an organisation from the brand jieba cut off before its trade (恒/拓 精密机械)."""
    start, end, _, kind = mention
    lead = brand_start(words, offsets, start) if kind == "organisation" else start
    return mention if lead == start else (lead, end, sentence[lead:end], kind)


_ORG_TAIL = re.compile(rf"{_REGISTERED_TAIL}|(?:股份)?(?:有限)?(?:公司|集团)|控股|部(?![长门])")
"""What may follow an organisation's name in its full form: 集团, 有限公司, and a registered name's
region and trade (蓝湾食品（苏州）有限公司, 极光云阁（上海）信息技术有限公司)."""


def _with_owner(mention: Found, found: list[Found], sentence: str) -> Found:
    """Return a project that begins inside an organisation's name from that name's start
    (新锐/传媒 直播代运营项目: 新锐传媒直播代运营项目, not 传媒直播代运营项目) or after it and 的
    (华润的设备更新项目: 华润设备更新项目, so two customers' projects stay two), an organisation with the
    集团, 有限公司 or 部 after its industry word (清源餐饮集团, 数据智能部), and a contract named after
    the organisation whose it is (华信证券的运维服务合同: 华信证券运维服务合同, not 服务合同)."""
    start, end, text, kind = mention
    if kind == "product" and _EDITION.fullmatch(text) and (brand := _edition_of(sentence, start)):
        return start - len(brand), end, brand + text, kind
    if kind == "organisation" and (tail := _ORG_TAIL.match(sentence, end)) is not None:
        return start, tail.end(), sentence[start : tail.end()], kind
    if kind == "project":
        owner = next((f for f in found if f[3] == "organisation" and f[0] < start < f[1]), None)
        if owner is not None:
            return owner[0], end, sentence[owner[0] : end], kind
        org = next((f for f in found if f[3] == "organisation" and f[1] == start - 1), None)
        if org is not None and sentence[start - 1] == "的":  # 鼎新电子的设备更新项目: 鼎新电子设备更新项目
            return start, end, org[2] + text, kind
    if kind == "document" and (whose := _CONTRACT_OWNER.search(sentence, 0, start)) is not None:
        name = _BEFORE_AN_OWNER.sub("", whose["owner"], count=1)
        if len(name) >= 4 and name[-2:] in ORG_SUFFIX:  # its span stays the contract's
            return start - len(whose["what"]), end, name + whose["what"] + text, kind
    return mention


def _edition_of(sentence: str, start: int) -> str:
    """Return the product an edition at ``start`` is of (a Latin name, or a product the gazetteer
    knows ending there: 企业微信专业版), else ""."""
    before = _BRAND_BEFORE.search(sentence, 0, start)
    if before is None:
        return ""
    brand = before.group()
    if not has_cjk(brand):
        return brand
    known = (brand[i:] for i in range(len(brand) - 1) if DEFAULT_GAZETTEER.get(brand[i:]) == "product")
    return next(known, "")


def _inner_verb(words: tuple[tuple[str, str], ...], index: int) -> bool:
    """Return True when the word at ``index`` is a verb inside a project's name: a two-character
    verb after a noun (官网/n 改版/v 项目, 系统/n 迁移/v 项目; 设备/vn 更新/d 项目, a verb jieba tags an
    adverb), not one that governs it (接手/v 杭州/ns 项目)."""
    word, flag = words[index]
    return (
        flag in ("v", "vn", "d")
        and len(word) == 2
        and word not in _NOT_PREFIX
        and index > 0
        and _prefix_word(*words[index - 1], verbs=False)
    )


def _inner_character(words: tuple[tuple[str, str], ...], index: int) -> bool:
    """Return True when the word at ``index`` is one character inside a project's name, after a
    noun (风/n 控/v 平台 of 风控平台项目, 直播/vn 代/q 运营 of 直播代运营项目)."""
    word, flag = words[index]
    return (
        len(word) == 1
        and has_cjk(word)
        and flag in ("v", "vn", "q", "n", "a", "ng", "vg")
        and word not in _NOT_PREFIX
        and index > 0
        and _prefix_word(*words[index - 1], verbs=False)
    )


_NOT_IN_A_NAME = frozenset("uprmxwyeoft")
"""The first letters of jieba's tags of words no name is made of (particles, pronouns, prepositions…)."""


def organisation_beginning_with(name: str, organisations: list[str]) -> str | None:
    """Return the organisation named before whose name is ``name`` and an industry word (蓝鲸 after
    蓝鲸冷链: 蓝鲸那边…, which jieba takes for a person's name), or in English its first word
    ("Stonebridge" after Stonebridge Analytics); a studio or a firm named after a person (张伟工作室)
    is not one."""
    for full in reversed(organisations):
        rest = full[len(name) :]
        if not full.startswith(name) or len(name) < 2:
            continue
        if has_cjk(name) and rest in ORG_SUFFIX and rest not in _NAMED_AFTER_PEOPLE:
            return full
        if not has_cjk(name) and rest.startswith(" ") and name[:1].isupper():
            return full  # Stonebridge after Stonebridge Analytics
    return None


_NAMED_AFTER_PEOPLE = frozenset({"工作室", "律所", "事务所"})


def _two_characters(words: tuple[tuple[str, str], ...], index: int) -> bool:
    """Return True when the two words before ``index`` are single characters, the two characters of a
    name (鼎/ng 信/n before 物流, 天/q 合/v before 光伏, 安/v 和/c before 酒店), at the start, after a
    punctuation mark or after a preposition, a verb or 了 (跟恒拓科技签了, 签了恒拓科技): neither a
    particle, a pronoun, a preposition, a number nor a time word, and no conjunction first."""
    pair = words[index - 2 : index] if index >= 2 else ()
    if len(pair) != 2 or any(len(w) != 1 or f[0] in _NOT_IN_A_NAME for w, f in pair) or pair[0][1] == "c":
        return False
    if index == 2 or not has_cjk(words[index - 3][0]):
        return True
    # after a verb, no name is made of 是, 人… (对接人是供应链总监: no 人是供应链)
    return words[index - 3][1] in ("p", "v", "ul") and not set("是人在有去到来") & set(
        pair[0][0] + pair[1][0]
    )


def _prefix_word(word: str, flag: str, *, verbs: bool = True) -> bool:
    """Return True when a jieba word can begin or continue a name before a head word (a company
    name may be tagged a verb or an adverb: 远航/v 汽车, 鼎新/d 科技; a project's may not:
    接手/v 杭州/ns 项目)."""
    if word in _NOT_PREFIX or not (has_cjk(word) or word.isalnum()):
        return False
    return (
        flag in _NOUNISH
        or word in _DIRECTIONS
        or (verbs and has_cjk(word) and len(word) >= 2 and flag in ("v", "a", "nr", "d", "vn"))
    )


def tagged_mentions(sentence: str) -> list[Found]:
    """Return the people, places, organisations and proper nouns jieba tags in ``sentence``."""
    out: list[Found] = []
    position = 0
    words = tag_words(sentence)
    for index, (word, flag) in enumerate(words):
        start, position = position, position + len(word)
        if len(word) < 2 or not has_cjk(word) or word in _NOT_NAMES or start < (out[-1][1] if out else 0):
            continue
        if _name_cut_apart(words, index):  # 叶家/n 豪/n 下周…: a clause opening with a name jieba cut
            out.append((start, position + 1, word + words[index + 1][0], "person"))
            continue
        if flag in ("nr", "nz", "n") and _where_one_lives(words, index):
            out.append((start, position, word, "place"))
        elif flag != "ns" and len(word) >= 3 and _abroad(sentence, start, word):
            out.append((start, position, word, "place"))  # 去慕尼黑/nr, 住在温哥华/nr: a city abroad
        elif flag in ("nr", "nrfg", "nrt") and len(word) == 3 and word[-1] in _NO_NAME_ENDS:
            continue  # 张家港/nr, 黄金周/nr, 高新区/nr: a place or a time jieba took for a name
        elif flag in ("nr", "nrfg", "nrt"):
            name_like = word[0] in SURNAMES or word[:2] in CHINESE_COMPOUND_SURNAMES
            prefixed = word[0] in "小老阿" and len(word) == 2 and word[1] not in _NOT_A_SURNAME
            if len(word) <= 4 and (name_like or prefixed) and word[0] != word[1]:
                end = position  # the words after a name glued on or cut off keep their offsets
                if (
                    name_like
                    and len(word) == 2
                    and _given_character(words, index, word in CHINESE_COMPOUND_SURNAMES)
                ):
                    word, end = word + words[index + 1][0], end + 1  # 汪子|涵: 汪子涵; 诸葛|明: 诸葛明
                if len(word) == 3 and word[2] in _TAKES_A_ROLE and name_like:
                    word, end = word[:2], end - 1  # 龙骁任|部门总监: 任 is the verb
                elif len(word) == 2 and _surname_before(words, index):
                    word, start = words[index - 1][0] + word, start - 1  # 覃|小川: 覃小川
                out.append((start, end, word, "person"))
        elif flag in ("ns", "n") and word in CHINESE_COMPOUND_SURNAMES and index + 1 < len(words):
            following = words[index + 1]  # 欧阳/ns 倩/nr, 上官/n 婷/x: a compound surname and a given name
            if (len(following[0]) <= 2 and following[1] in ("nr", "nrfg", "nrt", "ng", "n")) or (
                following[1] == "x" and len(following[0]) == 1 and has_cjk(following[0])
            ):
                out.append((start, position + len(following[0]), word + following[0], "person"))
        elif flag == "ns" and word[0] in "回去到" and is_chinese_place(word[1:]):
            out.append((start + 1, position, word[1:], "place"))  # 回岳阳/ns: 岳阳
        elif flag == "ns" and not _REGION.match(word):
            person = (
                _unknown_name(word)
                or _named_after_role(sentence, start, word)
                or _named_after_kin(words, index)
            )
            out.append((start, position, word, "person" if person else "place"))
        elif flag == "nt":
            out.append((start, position, word, "organisation"))
    return out


_TAKES_A_ROLE = "任升调"
"""A verb jieba may glue to a name before a role (龙骁任部门总监, 车晓东升总监)."""


def _surname_before(words: tuple[tuple[str, str], ...], index: int) -> bool:
    """Return True when the word before a two-character name is a surname alone (覃/nr 小川/nr)."""
    if index == 0:
        return False
    before, flag = words[index - 1]
    return len(before) == 1 and before in SURNAMES and flag in ("nr", "nrfg", "nrt")


def _where_one_lives(words: tuple[tuple[str, str], ...], index: int) -> bool:
    """Return True for a word after 住在 or a verb of moving that names a place jieba took for a
    name or a noun (住在闵行/nr, 搬到顺义/n) or a proper noun (住在回龙观/nz); 在腾讯 alone is no home.
    A division the gazetteer knows is also a place after 回/去/到 or before 老家 (回|合肥/n 发展,
    回|景德镇/nr 老家): jieba knows those words as nouns or names."""
    word, flag = words[index]
    before = "".join(w for w, _ in words[max(0, index - 2) : index])
    if _MOVED_TO.search(before):
        return flag == "nz" or is_chinese_place(word)
    after = words[index + 1][0] if index + 1 < len(words) else ""
    went = index > 0 and words[index - 1][0] in _GOING
    return (went or after.startswith("老家")) and is_chinese_place(word)


_MOVED_TO = re.compile(r"(?:住在|[搬迁](?:到|去|来|回))$")
_GOING = frozenset({"回", "去", "到", "回到", "飞", "飞到", "前往", "离开"})
_TO_A_PLACE = re.compile(r"(?:[去到在从回飞往赴]|移民|定居|抵达|前往)$")


def _abroad(sentence: str, start: int, word: str) -> bool:
    """Return True for a city abroad said where a place goes (去慕尼黑, 住在温哥华), not a name that
    reads as one (杰克逊说…)."""
    return _TO_A_PLACE.search(sentence, 0, start) is not None and is_world_place_zh(word)


def _name_cut_apart(words: tuple[tuple[str, str], ...], index: int) -> bool:
    """Return True when a clause opens with a surname's two-character word and one more character
    that form no known word, the character a rare one, before a time, an adverb, a verb or a
    preposition (叶家|豪|下周|转岗)."""
    word, flag = words[index]
    if len(word) != 2 or word[0] not in SURNAMES or flag in ("nr", "nrfg", "nrt") or index + 2 >= len(words):
        return False
    if index > 0 and has_cjk(words[index - 1][0]):
        return False
    third, after = words[index + 1], words[index + 2]
    return (
        len(third[0]) == 1
        and has_cjk(third[0])
        and jieba_module().get_FREQ(third[0], 0) < _RARE_CHARACTER  # not 任务|都, 韩剧|我
        and third[0] not in _PLACE_OR_TIME_ENDS  # not 张家|港, 黄金|周, 高新|区
        and is_unknown_word(word + third[0])
        and after[1][:1] in ("t", "d", "v", "p")
    )


def _given_character(words: tuple[tuple[str, str], ...], index: int, surname_only: bool = False) -> bool:
    """Return True when the word after a two-character name is the name's third character, which
    jieba cut off (汪子|涵|今天): one rare character (a common one is a word: 王强|说) forming no word;
    after a compound surname alone (诸葛|明), any character but a particle or a preposition."""
    if index + 1 >= len(words):
        return False
    following, flag = words[index + 1]
    if surname_only:
        return len(following) == 1 and has_cjk(following) and flag[0] not in "upcrdf"
    return (
        len(following) == 1
        and has_cjk(following)
        and jieba_module().get_FREQ(following, 0) < _RARE_CHARACTER
        and is_unknown_word(words[index][0] + following)
    )


_NO_NAME_ENDS = frozenset("港区周湾岛省市县镇村路街")
"""Last characters of places and times, not of given names (张小红, 王江 are names)."""
_PLACE_OR_TIME_ENDS = _NO_NAME_ENDS | frozenset("红山河湖江州园城")
_RARE_CHARACTER = 3000
"""jieba's count below which a single character is rather part of a name than a word (涵 325, 说 219,817)."""


_ROLE_BEFORE = re.compile(rf"(?:{ZH_ROLE})$")


def _named_after_role(sentence: str, start: int, word: str) -> bool:
    """Return True for a surname's place name right after a role: a person (他们CIO黄海, 经理黄山), but
    not three characters ending as a river, lake or road does (他们CIO黄浦江边上…)."""
    if len(word) == 3 and word[-1] in _GEOGRAPHIC_ENDS:
        return False
    return len(word) <= 3 and word[0] in SURNAMES and _ROLE_BEFORE.search(sentence, 0, start) is not None


_GEOGRAPHIC_ENDS = frozenset("江河湖海山岛湾港路街桥门井村镇")
_KIN_BEFORE_NAME = _words(
    "同事 朋友 同学 室友 舍友 闺蜜 老公 老婆 男朋友 女朋友 弟弟 妹妹 哥哥 姐姐 儿子 女儿 表妹 表弟"
)


def _named_after_kin(words: tuple[tuple[str, str], ...], index: int) -> bool:
    """Return True for a foreign place's name right after a kin or people word and before what they
    do (我同事米兰下周去杭州, 我闺蜜罗马说…): a person so named; a Chinese division stays a place."""
    word = words[index][0]
    return (
        0 < index < len(words) - 1
        and words[index - 1][0] in _KIN_BEFORE_NAME
        and words[index + 1][1] in ("v", "t", "d", "p")
        and not is_chinese_place(word)
    )


def _unknown_name(word: str) -> bool:
    """Return True when a word jieba guessed is a place reads as a person: a surname and one or two
    characters that neither jieba's dictionary nor the division gazetteer knows (钱坤, not 罗马 or 昆山)."""
    return len(word) <= 3 and word[0] in SURNAMES and is_unknown_word(word) and not is_chinese_place(word)


def is_whole_word(sentence: str, start: int, end: int) -> bool:
    """Return True when ``sentence[start:end]`` is one or more whole jieba words (老婆 of 老婆生日, not
    老公 of 老公司 or 老公公)."""
    bounds, offset = {0}, 0
    for word, _ in tag_words(sentence):
        offset += len(word)
        bounds.add(offset)
    return start in bounds and end in bounds


def inside_longer_name(sentence: str, start: int, end: int) -> bool:
    """Return True when ``sentence[start:end]`` begins a longer word jieba tags as a proper name or an
    organisation (京东 of 京东方/nz, not 蔚来 of 蔚来任/l nor 顺丰 of 顺|丰当)."""
    found = word_at(sentence, start)
    return found is not None and start + len(found[0]) > end and found[1] in ("nz", "nt", "nr", "nrt", "ns")


def is_unknown_word(word: str) -> bool:
    """Return True when jieba's dictionary does not know ``word`` as a common word (names mostly)."""
    return not jieba_module().get_FREQ(word)


def is_surname(character: str) -> bool:
    """Return True when ``character`` is a common Chinese surname."""
    return character in SURNAMES
