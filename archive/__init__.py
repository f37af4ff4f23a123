"""A tournament's archive: one file to take it whole to another Atout and bring it back.

Above `tournaments` and `scoring`, whose rows it reads and writes by nature; it keeps the
identity a tournament carries from one Atout to another (`ArchiveIdentity`).
"""
