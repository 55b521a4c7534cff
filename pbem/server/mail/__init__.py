"""Mail in and out of the server.

``inbound``: read one raw message (sender, orders text, robot or not).
``outbox``: queue outgoing mail in the database and deliver it with retries.
``smtpd``: the built-in SMTP receiver, which stores each message before saying 250.
"""
