"""How mail programs lay out a reply, in the languages of our players and clubs: the
patterns pbem/server/mail/reply.py reads a reply with.

Each pattern reads one line without its quoting and decoration (``DECOR``).
Add a language here: an attribution verb to ``VERBS``, header labels to
``FROM``, ``DATE`` or ``OTHER``, a separator's words to ``PHRASES``, a phone
footer to ``FOOTER``, a sign-off to ``CLOSING``; then add a mail written that
way to tests/reply_corpus/make_corpus.py.
"""

import re

QUOTE = re.compile(r"^[ \t]*((?:>[ \t]?)+)")
DECOR = "*_ \t\u00a0"  # bold and italics that HTML-to-text conversions leave around words

# Attribution verbs: "X wrote:" in the languages of our players and of the clubs.
VERBS = (
    r"wrote|writes|has written|a écrit|a ecrit|écrit|schrieb|hat geschrieben|escribió|escribio|ha scritto|scrisse|"
    r"schreef|heeft geschreven|skrev|skriver|napisał\(a\)|napisała|napisał|napsal\(a\)|napsala|napsal|napísal|"
    r"napisao|napisala|je napisal|pisze|написал\(а\)|написала|написал|пишет|написав\(ла\)|написав|написала|пише|"
    r"написа|写道|寫道|撰写|írta|kirjoitti|escreveu|έγραψε|yazdı|a scris|rašė|rakstīja|kirjutas|skrifaði|"
    r"님이 작성|のメッセージ|wrote"
)
VERB = re.compile(rf"(?:^|[\s,)>\]\"'])(?:{VERBS})(?=$|[\s:：(,])", re.I)
# What an attribution with no verb holds (Yandex, Mail.ru, Gmail in Russian or Japanese):
# an address, or a date and a time; it ends with a colon (also the full-width one).
EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
TIME = re.compile(r"\d{1,2}[:.h]\d{2}")
YEAR = re.compile(r"(?:^|\D)(?:19|20)\d{2}(?:\D|$)")
ENDS_COLON = re.compile(r"[:：]\s*$")
# The first word of an attribution, to join one that the mail program wrapped over lines.
START = re.compile(r"(on|le|am|el|il|op|den|em|w dniu|dnia|dne|в|у|στις|în|na|da|de|kl|the)\s", re.I)

# Header blocks: Outlook and most web mails write the replied-to mail's headers above it.
FROM = ("from", "de", "von", "van", "da", "от", "от кого", "від", "od", "fra", "från", "lähettäjä", "feladó",
         "发件人", "寄件者", "差出人", "kimden", "από", "afzender", "frá", "pošiljatelj", "odesílatel", "saatja",
         "sūtītājs", "siuntėjas", "expeditor", "de la", "remitente", "mittente", "sender", "보낸 사람", "šalje",
        "подател", "відправник", "отправитель")
DATE = ("sent", "date", "envoyé", "envoyé le", "envoye", "gesendet", "datum", "verzonden", "inviato", "data",
         "отправлено", "дата", "надіслано", "відправлено", "wysłano", "wysłane", "sendt", "skickat", "lähetetty",
         "elküldve", "küldve", "dátum", "发送时间", "日期", "寄件日期", "送信日時", "enviado", "enviado el",
         "enviada em", "enviado em", "tarih", "gönderildi", "gönderilme", "στάλθηκε", "ημερομηνία", "odesláno",
         "trimis", "saadetud", "išsiųsta", "nosūtīts", "poslano", "послато", "sent at", "when", "보낸 날짜",
        "изпратено", "odoslané", "gesendet am", "verstuurd", "data di invio")
OTHER = ("to", "à", "a", "an", "aan", "кому", "do", "til", "till", "vastaanottaja", "címzett", "收件人", "宛先",
          "para", "kime", "προς", "komu", "către", "adresát", "subject", "objet", "sujet", "betreff", "onderwerp",
          "oggetto", "тема", "temat", "emne", "ämne", "aihe", "tárgy", "主题", "主旨", "件名", "asunto", "assunto",
          "konu", "θέμα", "předmět", "subiect", "cc", "kopie", "copie à", "копия", "копія", "kopia", "dw",
          "kopio", "másolatot kap", "抄送", "副本", "cco", "bcc", "reply-to", "répondre à", "antwort an",
          "importance", "priorité", "wichtigkeit", "attachments", "pièces jointes", "anlagen", "收件者", "받는 사람",
         "제목", "относно", "predmet", "kopie an")
LABEL = "|".join(sorted((re.escape(w) for w in FROM + DATE + OTHER), key=len, reverse=True))
HEADER_LINE = re.compile(rf"^[{DECOR}]*({LABEL})[{DECOR}]*[:：]\s*[{DECOR}]*\S", re.I)
# Any "Label: value" line (a header block in a language not listed), above the server's marker.
ANY_HEADER_LINE = re.compile(rf"^[{DECOR}]*[^\W\d_][\w .'’-]{{0,30}}?[{DECOR}]*[:：][{DECOR}]*\S", re.I)

# Separator lines that start the quoted mail.
PHRASES = (
    r"original message|original|ursprüngliche nachricht|originalnachricht|message d'origine|message original|"
    r"mensaje original|messaggio originale|original-nachricht|mail original|message initial|původní e-mail|"
    r"pôvodná správa|оригинално съобщение|izvorna poruka|originalna poruka|messaggio inoltrato|oorspronkelijk bericht|origineel bericht|"
    r"oprindelig(?:e)? (?:besked|meddelelse)|videresendt (?:besked|meddelelse)|opprinnelig melding|"
    r"ursprungligt meddelande|vidarebefordrat meddelande|alkuperäinen viesti|välitetty viesti|eredeti üzenet|"
    r"továbbított üzenet|wiadomość oryginalna|oryginalna wiadomość|przekazana wiadomość|původní zpráva|"
    r"přeposlaná zpráva|исходное сообщение|оригинальное сообщение|пересылаемое сообщение|"
    r"пересланное сообщение|вихідне повідомлення|оригінальне повідомлення|переслане повідомлення|原始邮件|"
    r"原始郵件|转发的邮件|轉寄的郵件|mensagem original|mensagem encaminhada|forwarded message|"
    r"weitergeleitete nachricht|message transféré|mensaje reenviado|reply message|reply|mesaj original|"
    r"αρχικό μήνυμα|orijinal mesaj|元のメッセージ|원본 메시지"
)
SEPARATOR = re.compile(rf"^[-=_*~—–\s]*(?:{PHRASES})[-=_*~—–\s]*:?$", re.I)
# A line framed by dashes ("---- On ... wrote ----"), and rules of dashes, "=" or underscores.
FRAMED = re.compile(r"^\s*[-=_*~—–]{2,}\s*(\S.*?)\s*[-=_*~—–]{2,}\s*$")
RULE = re.compile(r"^\s*[-=_*~—–]{2,}\s*$")
# The signature's own rule: "-- " (RFC 3676), and the single dash a phone or Mac writes for it ("--" turned
# into an em dash or an en dash by the keyboard's smart punctuation).
SIG_DASH = ("-- ", "--", "—", "— ", "–", "– ")
# An attribution line whose colon the mail program left out: it starts like one and ends with its verb.
ENDS_VERB = re.compile(rf"(?:^|[\s,)>\]\"'])(?:{VERBS})\s*$", re.I)
PLAIN_RULE = re.compile(r"^\s*(?:={5,}|_{10,})\s*$")  # a rule of "=" or Outlook's underscores: the mail quoted below

# The line above a forwarded mail ("---------- Forwarded message ---------", "Begin forwarded message:").
FORWARD = re.compile(
    r"forwarded message|weitergeleitete (?:nachricht|e-mail)|message transféré|message réexpédié|mensaje reenviado|"
    r"messaggio inoltrato|doorgestuurd bericht|videresendt (?:besked|meddelelse|melding)|vidarebefordrat meddelande|"
    r"välitetty viesti|továbbított üzenet|przekazana wiadomość|wiadomość przekazana|přeposlaná zpráva|"
    r"пересылаемое сообщение|пересланное сообщение|переслане повідомлення|пересланий лист|转发的邮件|轉寄的郵件|"
    r"mensagem encaminhada|mensagem reencaminhada",
    re.I,
)
# The key in the server's orders form, which the player replaces with his own.
PLACEHOLDER = re.compile(r"^(?:<.*>|\*+|your-key-here)$", re.I)

# Footers that phones, mail apps and carriers add under what the player wrote.
FOOTER = re.compile(
    r"^(?:sent (?:from|with|via|using|on|by) .+|get outlook for .+|download outlook for .+|"
    r"(?:envoyé|envoye|expédié) (?:de|depuis|à partir de|avec) .+|obtenir outlook pour .+|"
    r"télécharger outlook pour .+|von meinem .+ gesendet|gesendet (?:von|mit|vom|über) .+|"
    r"holen sie sich outlook für .+|outlook für .+ (?:beziehen|herunterladen)|"
    r"(?:отправлено|послано|отправлено) (?:с|со|из|через) .+|(?:надіслано|відправлено) (?:з|із|зі|через) .+|"
    r"发自我的.+|發自我的.+|从我的.+发送|來自我的.+|寄自我的.+|(?:inviato|spedito) da .+|"
    r"(?:enviado|enviada) (?:desde|do|da|de|con|com) .+|verzonden (?:vanaf|met|van|via) .+|"
    r"skickat från .+|sendt fra .+|wysłane z .+|wysłano z .+|odesláno z .+|lähetetty .+?(?:sta|stä|lla|llä)\b.*|"
    r".+(?:umdan|imden|ımdan|den|dan) gönderildi|iphone'umdan gönderildi|küldve .+ról|küldve .+ről|"
    r"trimis de pe .+|saadetud .+|my iphone|"
    r"(?:this|the) (?:e-?mail|message) (?:was|has been) sent (?:from|with|by|using) .+)$",
    re.I,
)


# Sign-offs under the last order ("Thanks,", "Cordialement", "С уважением").
CLOSING = re.compile(
    r"^(?:thanks|thank you|thx|cheers|regards|best|best regards|kind regards|all the best|greetings|yours|br|"
    r"merci|merci d'avance|cordialement|amitiés|bien à vous|bonne journée|à bientôt|salutations|"
    r"danke|vielen dank|gruß|grüße|viele grüße|liebe grüße|beste grüße|lg|mfg|vg|"
    r"grazie|saluti|cordiali saluti|gracias|saludos|un saludo|obrigado|obrigada|abraços|"
    r"bedankt|groeten|met vriendelijke groet|tack|hälsningar|mvh|med venlig hilsen|hilsen|"
    r"dziękuję|pozdrawiam|pozdrowienia|děkuji|s pozdravem|díky|kiitos|terveisin|köszönöm|üdv|"
    r"спасибо|с уважением|всего доброго|удачи|пока|дякую|з повагою|на все добре|"
    r"谢谢|謝謝|此致|祝好|vive l'empereur|vive l'empereur !|es lebe der kaiser)\b.{0,40}$",
    re.I,
)
