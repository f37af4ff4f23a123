"""The scoring side's reads that pages share: `standings` (tournaments shown to the
public, their stored rankings, a round's tables as the public sees them), `tables` (a
table's sheet, its sides, the checks of a hand, a round's tables for the director) and
`history` (a player's tournaments). Nothing here writes."""
