// What cfrviz.figures.timeline_code writes in front of the joined modules: TimelineMode's values.
declare const TIMELINE_MODES: readonly string[];
