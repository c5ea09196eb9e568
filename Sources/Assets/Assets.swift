public enum AssetsModule {}
