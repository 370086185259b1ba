from typing import Any, Dict, List, Mapping, Optional, Union
import os

from ._api import Error as Error

DEFAULT_SHARDS: int

class SweepError(Error):
    failures: Dict[int, str]

class InProcess:
    def map(self, f: Any, *args: Any, **kwargs: Any) -> List[Any]: ...

def commands() -> List[str]: ...
def run(
    command: str,
    request: Mapping[str, Any],
    client: Any = ...,
    store: Optional[Union[str, os.PathLike]] = ...,
    progress: bool = ...,
    shards: Optional[int] = ...,
    as_json: bool = ...,
) -> Any: ...
