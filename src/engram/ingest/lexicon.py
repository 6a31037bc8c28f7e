"""The word lists the builtin extractor reads names with: places, organisations, products, first
names, Chinese surnames, and the capitalised words that are not names (compound surnames and
titles are shared with resolution: ``engram.nlp.names``).

Small on purpose: they seed mention detection (``engram.ingest.mentions``); a deployment adds
its own names through the extractor's ``gazetteer``. First names beyond ``FIRST_NAMES`` come
from ``engram.nlp.names.first_names`` (a maintained list).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from engram.nlp.names import CHINESE_COMPOUND_SURNAMES, CHINESE_TITLES


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


COUNTRIES = _words(
    "USA US America Canada Mexico Brazil Argentina Chile Peru Colombia UK England Scotland Ireland Wales "
    "France Germany Spain Portugal Italy Netherlands Belgium Switzerland Austria Sweden Norway Denmark "
    "Finland Poland Greece Turkey Russia Ukraine Israel Egypt Morocco Kenya Nigeria India Pakistan China "
    "Japan Korea Vietnam Thailand Singapore Malaysia Indonesia Philippines Australia Iceland Cuba Jamaica "
    "中国 美国 日本 英国 法国 德国 韩国 加拿大 澳大利亚 新加坡 意大利 西班牙 俄罗斯 印度 泰国 越南"
)
REGIONS = _words(
    "Alabama Alaska Arizona Arkansas California Colorado Connecticut Delaware Florida Georgia Hawaii Idaho "
    "Illinois Indiana Iowa Kansas Kentucky Louisiana Maine Maryland Massachusetts Michigan Minnesota "
    "Mississippi Missouri Montana Nebraska Nevada Ohio Oklahoma Oregon Pennsylvania Tennessee Texas Utah "
    "Vermont Virginia Washington Wisconsin Wyoming Ontario Quebec Bavaria Tuscany Provence Normandy "
    "北京 上海 天津 重庆 河北 山西 辽宁 吉林 黑龙江 江苏 浙江 安徽 福建 江西 山东 河南 湖北 "
    "湖南 广东 海南 四川 "
    "贵州 云南 陕西 甘肃 青海 台湾 内蒙古 广西 西藏 宁夏 新疆 香港 澳门"
)
_CITIES = _words(
    "Paris London Berlin Tokyo Beijing Shanghai Boston Chicago Seattle Austin Denver Miami Portland Atlanta "
    "Dallas Houston Philadelphia Toronto Vancouver Montreal Sydney Melbourne Madrid Barcelona Rome Milan "
    "Amsterdam Dublin Lisbon Vienna Prague Seoul Bangkok Dubai Mumbai Delhi Moscow Istanbul Nashville "
    "Orlando Phoenix Vegas Brooklyn Manhattan Europe Asia Africa 杭州 广州 深圳 成都 南京 武汉 西安 苏州 "
    "长沙 青岛 厦门 东京 纽约 伦敦 巴黎 台北 大阪 首尔 硅谷"
) | {"New York", "Los Angeles", "San Francisco", "San Diego", "Las Vegas", "Hong Kong", "Mexico City",
     "New Orleans", "Silicon Valley", "Rio de Janeiro", "New Zealand", "South Korea", "North Carolina",
     "South Carolina", "New Jersey", "New Mexico", "North Dakota", "South Dakota", "West Virginia",
     "Rhode Island", "New Hampshire"}  # fmt: skip
_ORGS = _words(
    "Google Microsoft Apple Amazon Meta Facebook Netflix Tesla IBM Intel Nvidia OpenAI Salesforce Oracle "
    "Uber Airbnb Twitter Starbucks Walmart Costco Harvard Stanford MIT Yale Princeton Oxford UNICEF NASA "
    "阿里巴巴 阿里 腾讯 百度 华为 字节跳动 字节 京东 美团 网易 滴滴 拼多多 联想 比亚迪 中国银行 "
    "工商银行 清华大学 北京大学 "
    "浙江大学 复旦大学 顺丰 蔚来 小鹏汽车 理想汽车 海尔 格力 中兴 招商银行 建设银行 "
    "农业银行 交通银行 中国平安 万科 新东方 好未来 快手 携程 科大讯飞 大疆 宁德时代 "
    "中石化 中石油 国家电网 德勤 普华永道 安永 毕马威 中信证券 中金公司 微软 谷歌 "
    "亚马逊 特斯拉 三星 米哈游 海康威视 商汤 金杜 欧派 唯品会 苏宁 链家 小米 荣耀 中国移动 中国电信 中国联通 "
    "蚂蚁集团 饿了么 哔哩哔哩 知乎 贝壳 海信 vivo OPPO 中芯国际 麦肯锡 埃森哲 星巴克"
)
_PRODUCTS = _words(
    "iPhone iPad MacBook Android Windows Slack Notion Zoom Excel PowerPoint Jira Confluence Trello Asana "
    "Figma GitHub Gmail Outlook WhatsApp Instagram TikTok YouTube Spotify ChatGPT HubSpot Shopify "
    "Photoshop Kindle PlayStation Xbox Linux Airtable ClickUp Monday.com Basecamp Dropbox Salesforce Zendesk "
    "Discord Telegram Signal Snapchat Pinterest LinkedIn Reddit Duolingo Strava Peloton Fitbit Canva Miro "
    "Loom Webex Skype Teams Evernote OneNote Todoist Obsidian Netflix Hulu Twitch 微信 企业微信 钉钉 飞书 "
    "支付宝 淘宝 抖音 微博 安卓 鸿蒙 iOS macOS "
    "小红书 QQ WPS "
    "腾讯会议 石墨文档 小米手机"
) | {"Microsoft Teams", "Google Docs", "Nintendo Switch"}
DEFAULT_GAZETTEER: Mapping[str, str] = {
    **dict.fromkeys(COUNTRIES | REGIONS | _CITIES, "place"),
    **dict.fromkeys(_ORGS, "organisation"),
    **dict.fromkeys(_PRODUCTS, "product"),
}
FIRST_NAMES = _words(
    "James John Robert Michael William David Richard Joseph Thomas Charles Daniel Matthew Anthony Mark "
    "Steven Paul Andrew Joshua Kevin Brian George Timothy Tim Ronald Jason Jeffrey Ryan Jacob Gary Nicholas "
    "Eric Jonathan Jon Stephen Larry Justin Scott Brandon Benjamin Ben Samuel Sam Gregory Alexander Alex "
    "Patrick Frank Jack Dennis Jerry Tyler Aaron Jose Adam Nathan Nate Henry Peter Zachary Kyle Noah Ethan "
    "Jeremy Walter Christian Keith Roger Terry Austin Sean Gerald Carl Harold Dylan Arthur Lawrence Jordan "
    "Jesse Bryan Billy Bruce Gabriel Joe Logan Albert Willie Alan Eugene Russell Vincent Philip Bobby "
    "Johnny Bradley Roy Ralph Randy Wayne Liam Lucas Mason Oliver Elijah Leo Max Evan Calvin Dave Mike "
    "Mary Patricia Jennifer Linda Elizabeth Barbara Susan Jessica Sarah Karen Lisa Nancy Betty Sandra "
    "Margaret Ashley Kimberly Emily Donna Michelle Carol Amanda Melissa Deborah Deb Stephanie Dorothy "
    "Rebecca Sharon Laura Cynthia Amy Kathleen Angela Shirley Brenda Emma Anna Pamela Nicole Samantha "
    "Katherine Kate Christine Helen Debra Rachel Carolyn Caroline Janet Maria Catherine Heather Diane Olivia "
    "Julie Joyce Victoria Ruth Virginia Lauren Kelly Christina Joan Evelyn Judith Andrea Hannah Megan "
    "Cheryl Jacqueline Martha Madison Teresa Gloria Sara Janice Ann Kathryn Abigail Sophia Frances Jean "
    "Alice Judy Isabella Julia Grace Amber Denise Danielle Marilyn Beverly Charlotte Natalie Theresa Diana "
    "Brittany Doris Kayla Alexis Lori Marie Melanie Mel Joanna Gina Audrey Jolene Mia Ava Chloe Zoe Lily "
    "Ella Luna Nora Ruby Tom Tony Jim Bill Bob Ted Nick Chris Matt Josh Jake Luke Kim Li Wang Zhang Chen"
)
EXCLUDE = _words(
    "i i'm i've i'd i'll the a an this that these those it its it's my your our their his her we you they "
    "we've we're we'd we'll you've you're they're they've that's there's finally actually honestly basically "
    "luckily unfortunately hopefully apparently currently kids go-live qbr recap kickoff arr acv tcv mrr "
    "uncle aunt auntie cousin "
    "he she what when where why how who which whose hey hi hello thanks thank congrats congratulations "
    "welcome wow oh yes yeah yep yup no nope sure ok okay lol haha hah btw omg aw aww awesome great cool "
    "nice good well so but and or if also just still really absolutely definitely totally anyway anyways "
    "plus "
    "speaking sounds glad sorry please let let's maybe not do did does have has had is are was were can "
    "could would should will dear bye cheers happy merry love hope enjoy take keep see talk check wish gonna "
    "january february march april may june july august september october november december monday tuesday "
    "wednesday thursday friday saturday sunday christmas easter thanksgiving halloween mom dad mum god "
    "ps am pm tv ai dm mr mrs ms dr prof there here then now today yesterday tomorrow ceo cto cfo coo vp "
    "mon tue tues wed thu thur thurs fri sat sun jan feb mar apr jun jul aug sep sept oct nov dec english "
    "spanish german french italian chinese japanese korean european american british asian african "
    "mondays tuesdays wednesdays thursdays fridays saturdays sundays weekends correction update note fyi "
    "reminder heads re fwd asap eod eta ddl btw imo tbh as per since after before while once unless "
    "usd eur gbp sek nok dkk chf jpy aud cad inr hkd sgd rmb cny baby "
    "got getting went moved started took made bought sold finished "  # "Got engaged to Mariana": no Got
    "decided agreed"  # a note's "Decided: migrate logging from Splunk to Loki": no one named Decided
)
GREETING = re.compile(r"(?:\b(?:hey|hi|hello|thanks|thank you|congrats|congratulations|bye|dear|go|sorry|"
                       r"wow|yo|morning|night|welcome|cheers)|[,，])\s*,?\s*$", re.I)  # fmt: skip
ORG_WORDS = _words(
    "Inc Corp LLC Ltd Company Co University College School Academy Institute Bank Group Foundation "
    "Association Center Centre Club Church Hospital Team Studio Studios Labs Agency Society Museum Library "
    "Health Systems Solutions Partners Logistics Media Capital Holdings Industries Technologies Software "
    "Motors Airlines Foods Pharma Pharmaceuticals Energy Insurance Consulting Ventures Networks Records "
    "Publishing Press Games Entertainment Bakery Cafe Restaurant Hotel Clinic Gym Shelter Hotels Clinics "
    "Hospitals Pharmacy Union Manufacturing Outfitters Freight Medicine Dental Robotics Tech "
    "Therapeutics Biotech Realty Properties Construction Telecom Airways Brewing Cloud "
    "Marine Outdoor Outdoors Schools Analytics Legal Aerospace Electronics Apparel Retail Supply Security "
    "Financial Mining Chemicals Dynamics Automotive Shipping Transport Resorts Brands Markets Stores "
    "Trading Textiles Packaging Printing Services Technology Electric Utilities Farms Sports Fitness "
    "Education Learning Credit Finance Investments Advisors Associates Bancorp Lines Wireless Devices "
    "Winery Brewery Distillery Glassworks Works Mills Bio Sciences Publishers Law Dairy Bakeries "
    "Architecture Architects Mutual Support Helpdesk Appliances Enterprises Corporation Limited GmbH PLC "
    "Laboratories AB AG SA NV BV "
    "Oy ASA SpA Srl Pty KK Recruitment Staffing Trust Consultancy"
)
OPENING_VERBS = _words(
    "Met Called Emailed Visited Pinged Texted Saw Closed Signed Lost Won Booked Joined Left Quoted Sent Told "
    "Asked Thanked Invited Hired Onboarded Followed Heard Spoke Chatted Talked Demoed Welcome Congrats "
    "Congratulations"
)
"""Verbs a note opens with, the subject dropped ("Met Okafor & Sons today"): no part of the name after."""
PLACE_WORDS = _words(
    "City Street St Avenue Ave Road Park Lake River Mountain Mountains Beach Island Islands Valley County "
    "Bay Canyon Falls Hills Square Town Village Coast National"
)
SURNAMES = frozenset(
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢"
    "姜崔"
    "钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤常温康施文牛"
    "樊葛"
    "邢安齐易乔伍庞颜倪庄聂章鲁岳翟殷詹申欧耿关兰焦俞左柳甘祝包宁尚符舒阮柯纪梅童凌毕单季裴霍涂成苗谷盛曲翁冉"
    "骆蓝"
    "路游辛靳管柴蒙鲍华喻祁蒲房滕屈饶解牟艾尤阳时穆农司卓古吉缪简车项连芦麦褚娄窦戚岑景党宫费卜冷晏席卫米柏宗"
    "瞿桂"
    "全佟应臧闵苟邬边卞姬师仇栾隋商刁沙荣巫寇桑郎甄丛仲虞敖巩明佘池查麻苑迟邝冼傅洪储郁阎"
)
SURNAME_ALT = "|".join([*sorted(CHINESE_COMPOUND_SURNAMES), f"[{''.join(sorted(SURNAMES))}]"])
ZH_TITLED = re.compile(
    rf"(?<![公上实设对双担兼出就离调继接转升改现新聘留])({SURNAME_ALT})({'|'.join(CHINESE_TITLES)}|(?<![\u4e00-\u9fff].)[姐哥](?![华伦夫妹们弟姐哥俩]))"
    rf"(?![\u4e00-\u9fff]{{0,1}}(?:经理|监))"
)
"""A surname and a title (李经理, 王总); or 姐 / 哥 (包姐, 王哥) when the surname opens a word
(not 温哥华); not 对方律师 or 双方经理, whose 方 ends 对方 and 双方, nor 担任会计 (任 ends a verb)."""
