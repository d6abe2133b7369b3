"""Files that ship with cfrviz: the bundled `.efg` games live in `games/`."""
