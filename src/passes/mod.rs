//! Middle-end passes over the IR, one file each, and the pipeline.
