"""The floor: small helpers the apps share, importing no app of the project.

`env` (typed readers of the environment, for the settings), `fastjson` (orjson for JSON
the project writes and reads back whole), `gcpause` (the cyclic collector paused around
bulk work), `requests` (what a request carries past the middleware, for the type checker).
Anything here may be imported from any floor above; nothing here imports `engine`,
`tournaments`, `scoring`, `rounds`, `archive`, `api` or `atout`.
"""
